# cfe-parboil-lbm-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-parboil-lbm-cuda.gp
# (writes cfe-parboil-lbm-cuda.png and cfe-parboil-lbm-cuda.svg; the data is cfe-parboil-lbm-cuda.dat)
source = 'results/reference/h100/parboil/parboil-cuda.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,540 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,540 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-parboil-lbm-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'parboil/lbm: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set ylabel "CFE (bars; 1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1 nomirror
  set y2label "speedup (x): marks"
  set y2range [0:1.5]
  set y2tics nomirror
  set border 11
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('shape=spheres' 0, 'shape=noise' 1)
  set xrange [-0.6:1.6]
  plot \
    "cfe-parboil-lbm-cuda.dat" index 0 using 1:2:(0.0818) with boxes lc rgb "#4e79a7" title 'baseline', \
    "cfe-parboil-lbm-cuda.dat" index 1 using 1:2:(0.0818) with boxes lc rgb "#f28e2b" title 'cpu_tdr[mech=rr,regroup=key]', \
    "cfe-parboil-lbm-cuda.dat" index 2 using 1:2:(0.0818) with boxes lc rgb "#e15759" title 'cpu_tdr[mech=rr,regroup=sort]', \
    "cfe-parboil-lbm-cuda.dat" index 3 using 1:2:(0.0818) with boxes lc rgb "#76b7b2" title 'cpu_tdr[mech=rr,regroup=greedy]', \
    "cfe-parboil-lbm-cuda.dat" index 4 using 1:2:(0.0818) with boxes lc rgb "#59a14f" title 'cpu_tdr[mech=rr,regroup=greedymax]', \
    "cfe-parboil-lbm-cuda.dat" index 5 using 1:2:(0.0818) with boxes lc rgb "#edc948" title 'gpu_tdr[alg=hot]', \
    "cfe-parboil-lbm-cuda.dat" index 6 using 1:2:(0.0818) with boxes lc rgb "#b07aa1" title 'gpu_tdr[alg=dgi]', \
    "cfe-parboil-lbm-cuda.dat" index 7 using 1:2:(0.0818) with boxes lc rgb "#ff9da7" title 'gpu_tdr[alg=hot_warp]', \
    "cfe-parboil-lbm-cuda.dat" index 8 using 1:2:(0.0818) with boxes lc rgb "#9c755f" title 'gpu_tdr[alg=dgi_scan]', \
    "cfe-parboil-lbm-cuda.dat" index 9 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential (right axis)", \
    "cfe-parboil-lbm-cuda.dat" index 10 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling (right axis)"
  set output
}
