# cfe-bbv-mc-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-bbv-mc-cuda.gp
# (writes cfe-bbv-mc-cuda.png and cfe-bbv-mc-cuda.svg; the data is cfe-bbv-mc-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,540 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,540 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-bbv-mc-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'bbv/mc: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H200'
  set ylabel "CFE (bars; 1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1 nomirror
  set y2label "speedup (x): marks"
  set y2range [0:2.5]
  set y2tics nomirror
  set border 11
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('(one workload)' 0)
  set xrange [-0.6:0.6]
  plot \
    "cfe-bbv-mc-cuda.dat" index 0 using 1:2:(0.1051) with boxes lc rgb "#4e79a7" title 'baseline', \
    "cfe-bbv-mc-cuda.dat" index 1 using 1:2:(0.1051) with boxes lc rgb "#edc948" title 'cpu_tdr[mech=rr,regroup=key]', \
    "cfe-bbv-mc-cuda.dat" index 2 using 1:2:(0.1051) with boxes lc rgb "#b07aa1" title 'cpu_tdr[mech=rr,regroup=sort]', \
    "cfe-bbv-mc-cuda.dat" index 3 using 1:2:(0.1051) with boxes lc rgb "#ff9da7" title 'cpu_tdr[mech=rr,regroup=greedy]', \
    "cfe-bbv-mc-cuda.dat" index 4 using 1:2:(0.1051) with boxes lc rgb "#9c755f" title 'cpu_tdr[mech=rr,regroup=greedymax]', \
    "cfe-bbv-mc-cuda.dat" index 5 using 1:2:(0.1051) with boxes lc rgb "#1f77b4" title 'gpu_tdr[alg=dgi]', \
    "cfe-bbv-mc-cuda.dat" index 6 using 1:2:(0.1051) with boxes lc rgb "#4e79a7" title 'gpu_tdr[alg=dgi_scan]', \
    "cfe-bbv-mc-cuda.dat" index 7 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential (right axis)", \
    "cfe-bbv-mc-cuda.dat" index 8 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling (right axis)"
  set output
}
