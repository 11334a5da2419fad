# study-bars-darm.gp — made by `harness report` from results/reference/h100/parboil/parboil-cuda.xml, results/reference/h100/rodinia/srad-bfs-cuda.xml, results/reference/h100/rodinia/lud-cuda.xml, results/reference/h100/darm/darm-cuda.xml, results/reference/h100/darm/mspcm-cuda.xml, results/reference/h100/darm/nqu-cuda.xml, results/reference/study-h100-h200-cuda/h200-parboil.xml, results/reference/study-h100-h200-cuda/h200-rodinia.xml, results/reference/study-h100-h200-cuda/h200-darm-partial.xml.
# Edit freely, then redraw in this folder: gnuplot study-bars-darm.gp
# (writes study-bars-darm.png and study-bars-darm.svg; the data is study-bars-darm.dat)
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 1901,1170 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 1901,1170 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "study-bars-darm.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot layout 3,1 title 'suite darm: speedup over the tuned baseline per target (best configuration, 95% interval)'
  set ylabel "speedup (x)"
  set yrange [0:2.75]
  set lmargin at screen 0.0368
  set rmargin at screen 0.8585
  set key at screen 0.8685, screen 0.9615 left top vertical Left reverse
  set xrange [-0.6:18.6]
  set xtics ('bit'."\n".'bs=32'."\n".'input=desc' 0, 'bit'."\n".'bs=64'."\n".'input=desc' 1, 'bit'."\n".'bs=128'."\n".'input=desc' 2, 'bit'."\n".'bs=256'."\n".'input=desc' 3, 'bit'."\n".'bs=64'."\n".'input=random' 4, 'bit'."\n".'bs=256'."\n".'input=random' 5, 'dct'."\n".'bs=8' 6, 'dct'."\n".'bs=16' 7, 'nqu'."\n".'order=natural'."\n".'per_launch=all' 8, 'nqu'."\n".'order=natural'."\n".'per_launch=2wg' 9, 'nqu'."\n".'order=random'."\n".'per_launch=all' 10, 'ms'."\n".'range=1024' 11, 'ms'."\n".'range=2147483647' 12, 'pcm'."\n".'bs=32'."\n".'input=ranges' 13, 'pcm'."\n".'bs=64'."\n".'input=ranges' 14, 'pcm'."\n".'bs=128'."\n".'input=ranges' 15, 'pcm'."\n".'bs=256'."\n".'input=ranges' 16, 'pcm'."\n".'bs=64'."\n".'input=random' 17, 'pcm'."\n".'bs=256'."\n".'input=random' 18)
  set bmargin 4
  set title 'cpu_tdr (end-to-end time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-darm.dat" index 0 using 1:2:(0.3680) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-darm.dat" index 1 using 1:2:(0.3680) with boxes lc rgb "#f28e2b" title 'cuda: NVIDIA H200', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  unset key
  set title 'gpu_tdr (kernel time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-darm.dat" index 3 using 1:2:(0.3680) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-darm.dat" index 4 using 1:2:(0.3680) with boxes lc rgb "#f28e2b" title 'cuda: NVIDIA H200', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  set title 'melded (kernel time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-darm.dat" index 6 using 1:2:(0.3680) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-darm.dat" index 7 using 1:2:(0.3680) with boxes lc rgb "#f28e2b" title 'cuda: NVIDIA H200', \
    "" index 7 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 8 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  unset multiplot
  set output
}
