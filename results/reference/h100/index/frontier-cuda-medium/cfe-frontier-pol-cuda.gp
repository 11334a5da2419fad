# cfe-frontier-pol-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-frontier-pol-cuda.gp
# (writes cfe-frontier-pol-cuda.png and cfe-frontier-pol-cuda.svg; the data is cfe-frontier-pol-cuda.dat)
source = 'results/reference/h100/frontier-cuda-medium.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,540 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,540 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-frontier-pol-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'frontier/pol: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set ylabel "CFE (bars; 1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1 nomirror
  set y2label "speedup (x): marks"
  set y2range [0:3.5]
  set y2tics nomirror
  set border 11
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('(one workload)' 0)
  set xrange [-0.6:0.6]
  plot \
    "cfe-frontier-pol-cuda.dat" index 0 using 1:2:(0.1051) with boxes lc rgb "#4e79a7" title 'baseline', \
    "cfe-frontier-pol-cuda.dat" index 1 using 1:2:(0.1051) with boxes lc rgb "#f28e2b" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "cfe-frontier-pol-cuda.dat" index 2 using 1:2:(0.1051) with boxes lc rgb "#e15759" title 'gpu_tdr[alg=hot_dgi]', \
    "cfe-frontier-pol-cuda.dat" index 3 using 1:2:(0.1051) with boxes lc rgb "#76b7b2" title 'gpu_tdr[alg=dgi]', \
    "cfe-frontier-pol-cuda.dat" index 4 using 1:2:(0.1051) with boxes lc rgb "#59a14f" title 'gpu_tdr[alg=dgi_scan]', \
    "cfe-frontier-pol-cuda.dat" index 5 using 1:2:(0.1051) with boxes lc rgb "#edc948" title 'gpu_tdr[alg=hot_warp_scan]', \
    "cfe-frontier-pol-cuda.dat" index 6 using 1:2:(0.1051) with boxes lc rgb "#b07aa1" title 'melded', \
    "cfe-frontier-pol-cuda.dat" index 7 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential (right axis)", \
    "cfe-frontier-pol-cuda.dat" index 8 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling (right axis)"
  set output
}
