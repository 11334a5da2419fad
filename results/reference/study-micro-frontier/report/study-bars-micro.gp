# study-bars-micro.gp — made by `harness report` from results/reference/study-micro-frontier/h100-medium.xml, results/reference/study-micro-frontier/h200-medium.xml, results/reference/study-micro-frontier/pocl-small.xml.
# Edit freely, then redraw in this folder: gnuplot study-bars-micro.gp
# (writes study-bars-micro.png and study-bars-micro.svg; the data is study-bars-micro.dat)
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 2400,1170 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 2400,1170 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "study-bars-micro.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot layout 3,1 title 'suite micro: speedup over the tuned baseline per target (best configuration, 95% interval)'
  set ylabel "speedup (x)"
  set yrange [0:4.5]
  set lmargin at screen 0.0292
  set rmargin at screen 0.8529
  set key at screen 0.8629, screen 0.9615 left top vertical Left reverse
  set xrange [-0.6:7.6]
  set xtics ('branch'."\n".'medium'."\n".'layers=1'."\n".'paths=2' 0, 'branch'."\n".'medium'."\n".'layers=1'."\n".'paths=4' 1, 'branch'."\n".'medium'."\n".'layers=1'."\n".'paths=8' 2, 'branch'."\n".'medium'."\n".'layers=2'."\n".'paths=2' 3, 'branch'."\n".'small'."\n".'layers=1'."\n".'paths=2' 4, 'branch'."\n".'small'."\n".'layers=1'."\n".'paths=4' 5, 'branch'."\n".'small'."\n".'layers=1'."\n".'paths=8' 6, 'branch'."\n".'small'."\n".'layers=2'."\n".'paths=2' 7)
  set bmargin 5
  set title 'cpu_tdr (end-to-end time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-micro.dat" index 0 using 1:2:(0.1051) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 1 using 1:2:(0.1051) with boxes lc rgb "#f28e2b" title 'opencl: NVIDIA H100 80GB HBM3', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 2 using 1:2:(0.1051) with boxes lc rgb "#e15759" title 'hip: NVIDIA H100 80GB HBM3', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 3 using 1:2:(0.1051) with boxes lc rgb "#76b7b2" title 'cuda: NVIDIA H200', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 4 using 1:2:(0.1051) with boxes lc rgb "#59a14f" title 'opencl: NVIDIA H200', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 5 using 1:2:(0.1051) with boxes lc rgb "#edc948" title 'hip: NVIDIA H200', \
    "" index 5 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 6 using 1:2:(0.1051) with boxes lc rgb "#b07aa1" title 'opencl: pthread-skylake-avx512-AMD EPYC', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 7 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  unset key
  set title 'gpu_tdr (kernel time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-micro.dat" index 8 using 1:2:(0.1051) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 8 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 9 using 1:2:(0.1051) with boxes lc rgb "#f28e2b" title 'opencl: NVIDIA H100 80GB HBM3', \
    "" index 9 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 10 using 1:2:(0.1051) with boxes lc rgb "#e15759" title 'hip: NVIDIA H100 80GB HBM3', \
    "" index 10 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 11 using 1:2:(0.1051) with boxes lc rgb "#76b7b2" title 'cuda: NVIDIA H200', \
    "" index 11 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 12 using 1:2:(0.1051) with boxes lc rgb "#59a14f" title 'opencl: NVIDIA H200', \
    "" index 12 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 13 using 1:2:(0.1051) with boxes lc rgb "#edc948" title 'hip: NVIDIA H200', \
    "" index 13 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 14 using 1:2:(0.1051) with boxes lc rgb "#b07aa1" title 'opencl: pthread-skylake-avx512-AMD EPYC', \
    "" index 14 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 15 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  set title 'melded (kernel time)'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "study-bars-micro.dat" index 16 using 1:2:(0.1051) with boxes lc rgb "#4e79a7" title 'cuda: NVIDIA H100 80GB HBM3', \
    "" index 16 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 17 using 1:2:(0.1051) with boxes lc rgb "#f28e2b" title 'opencl: NVIDIA H100 80GB HBM3', \
    "" index 17 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 18 using 1:2:(0.1051) with boxes lc rgb "#e15759" title 'hip: NVIDIA H100 80GB HBM3', \
    "" index 18 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 19 using 1:2:(0.1051) with boxes lc rgb "#76b7b2" title 'cuda: NVIDIA H200', \
    "" index 19 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 20 using 1:2:(0.1051) with boxes lc rgb "#59a14f" title 'opencl: NVIDIA H200', \
    "" index 20 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 21 using 1:2:(0.1051) with boxes lc rgb "#edc948" title 'hip: NVIDIA H200', \
    "" index 21 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "study-bars-micro.dat" index 22 using 1:2:(0.1051) with boxes lc rgb "#b07aa1" title 'opencl: pthread-skylake-avx512-AMD EPYC', \
    "" index 22 using 1:3:(0):($4-$3) with vectors heads size screen 0.004,90 lc rgb "#222222" notitle, \
    "" index 23 using 1:(0):2 with labels rotate by 90 left offset 0,0.3 font ",8" tc rgb "#666666" notitle
  unset multiplot
  set output
}
