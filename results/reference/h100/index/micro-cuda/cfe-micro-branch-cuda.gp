# cfe-micro-branch-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-micro-branch-cuda.gp
# (writes cfe-micro-branch-cuda.png and cfe-micro-branch-cuda.svg; the data is cfe-micro-branch-cuda.dat)
source = 'results/reference/h100/micro-cuda.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 1188,720 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 1188,720 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-micro-branch-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot
  set title 'micro/branch: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set ylabel "CFE (1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1
  set key at screen 0.74, screen 0.9 top left vertical Left reverse
  set bmargin 4
  set xtics ('layers=1'."\n".'paths=2' 0, 'layers=1'."\n".'paths=4' 1, 'layers=1'."\n".'paths=8' 2, 'layers=2'."\n".'paths=2' 3)
  set xrange [-0.6:3.6]
  set lmargin at screen 0.09
  set rmargin at screen 0.72
  set tmargin at screen 0.9
  set bmargin at screen 0.516
  plot \
    "cfe-micro-branch-cuda.dat" index 0 using 1:2:(0.0920) with boxes lc rgb "#868686" title 'baseline', \
    "cfe-micro-branch-cuda.dat" index 1 using 1:2:(0.0920) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "cfe-micro-branch-cuda.dat" index 2 using 1:2:(0.0920) with boxes lc rgb "#94bae6" title 'cpu_tdr[mech=rr,regroup=key]', \
    "cfe-micro-branch-cuda.dat" index 3 using 1:2:(0.0920) with boxes lc rgb "#7f3c10" title 'gpu_tdr[alg=hot]', \
    "cfe-micro-branch-cuda.dat" index 4 using 1:2:(0.0920) with boxes lc rgb "#c55d18" title 'gpu_tdr[alg=dgi]', \
    "cfe-micro-branch-cuda.dat" index 5 using 1:2:(0.0920) with boxes lc rgb "#e88543" title 'gpu_tdr[alg=hot_warp]', \
    "cfe-micro-branch-cuda.dat" index 6 using 1:2:(0.0920) with boxes lc rgb "#f0b289" title 'gpu_tdr[alg=dgi_scan]', \
    "cfe-micro-branch-cuda.dat" index 7 using 1:2:(0.0920) with boxes lc rgb "#3dc750" title 'melded'
  unset title
  set tmargin at screen 0.40
  set bmargin at screen 0.096
  set ylabel "speedup there is to win (x)"
  set yrange [0:9]
  set ytics autofreq
  set key at screen 0.74, screen 0.40 top left vertical Left reverse
  plot \
    "cfe-micro-branch-cuda.dat" index 8 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential", \
    "cfe-micro-branch-cuda.dat" index 9 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling"
  unset multiplot
  set output
}
