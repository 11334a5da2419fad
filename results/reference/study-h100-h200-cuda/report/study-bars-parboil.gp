# study-bars-parboil.gp — made by `harness report` from results/reference/h100/parboil/parboil-cuda.xml, results/reference/h100/rodinia/srad-bfs-cuda.xml, results/reference/h100/rodinia/lud-cuda.xml, results/reference/h100/darm/darm-cuda.xml, results/reference/h100/darm/mspcm-cuda.xml, results/reference/h100/darm/nqu-cuda.xml, results/reference/study-h100-h200-cuda/h200-parboil.xml, results/reference/study-h100-h200-cuda/h200-rodinia.xml, results/reference/study-h100-h200-cuda/h200-darm-partial.xml.
# Edit freely, then redraw in this folder: gnuplot study-bars-parboil.gp
# (writes study-bars-parboil.png and study-bars-parboil.svg; the data is study-bars-parboil.dat)
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 949,1170 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 949,1170 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "study-bars-parboil.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot layout 3,1 title 'suite parboil: speedup over the tuned baseline per target (best configuration, 95% interval)'
  set ylabel "speedup (x)"
  set yrange [0:1.5]
  set lmargin at screen 0.0738
  set rmargin at screen 0.7165
  set key at screen 0.7265, screen 0.9615 left top vertical Left reverse
  set xrange [-0.6:4.6]
  set xtics ('lbm'."\n".'shape=spheres' 0, 'lbm'."\n".'shape=noise' 1, 'pb'."\n".'k=3' 2, 'pb'."\n".'k=2' 3, 'histo'."\n".'' 4)
  set bmargin 3
  set title 'cpu_tdr (end-to-end time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-parboil.dat" index 0 using 1:2:(0.3680) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-parboil.dat" index 1 using 1:2:(0.3680) with boxes lc rgb "#f28e2b" title 'cuda: NVIDIA H200', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  unset key
  set title 'gpu_tdr (kernel time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-parboil.dat" index 3 using 1:2:(0.3680) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-parboil.dat" index 4 using 1:2:(0.3680) with boxes lc rgb "#f28e2b" title 'cuda: NVIDIA H200', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  set title 'melded (kernel time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-parboil.dat" index 6 using 1:2:(0.3680) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-parboil.dat" index 7 using 1:2:(0.3680) with boxes lc rgb "#f28e2b" title 'cuda: NVIDIA H200', \
    "" index 7 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 8 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  unset multiplot
  set output
}
