# cfe-frontier-cvp-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-frontier-cvp-cuda.gp
# (writes cfe-frontier-cvp-cuda.png and cfe-frontier-cvp-cuda.svg; the data is cfe-frontier-cvp-cuda.dat)
source = 'results/reference/h100/tuned-frontier/cvp-cpu_tdr-melded.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,720 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,720 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-frontier-cvp-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot
  set title 'frontier/cvp: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set ylabel "CFE (1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1
  set key at screen 0.74, screen 0.9 top left vertical Left reverse
  set bmargin 3
  set xtics ('(one workload)' 0)
  set xrange [-0.6:0.6]
  set lmargin at screen 0.09
  set rmargin at screen 0.72
  set tmargin at screen 0.9
  set bmargin at screen 0.494
  plot \
    "cfe-frontier-cvp-cuda.dat" index 0 using 1:2:(0.1227) with boxes lc rgb "#868686" title 'baseline', \
    "cfe-frontier-cvp-cuda.dat" index 1 using 1:2:(0.1227) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "cfe-frontier-cvp-cuda.dat" index 2 using 1:2:(0.1227) with boxes lc rgb "#2a6ab3" title 'cpu_tdr[mech=dlt,regroup=sort]', \
    "cfe-frontier-cvp-cuda.dat" index 3 using 1:2:(0.1227) with boxes lc rgb "#5491d7" title 'cpu_tdr[mech=dlt,regroup=greedy]', \
    "cfe-frontier-cvp-cuda.dat" index 4 using 1:2:(0.1227) with boxes lc rgb "#94bae6" title 'cpu_tdr[mech=dlt,regroup=greedymax]', \
    "cfe-frontier-cvp-cuda.dat" index 5 using 1:2:(0.1227) with boxes lc rgb "#3dc750" title 'melded'
  unset title
  set tmargin at screen 0.40
  set bmargin at screen 0.074
  set ylabel "speedup there is to win (x)"
  set yrange [0:4.5]
  set ytics autofreq
  set key at screen 0.74, screen 0.40 top left vertical Left reverse
  plot \
    "cfe-frontier-cvp-cuda.dat" index 6 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential", \
    "cfe-frontier-cvp-cuda.dat" index 7 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling"
  unset multiplot
  set output
}
