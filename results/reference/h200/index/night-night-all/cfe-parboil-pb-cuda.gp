# cfe-parboil-pb-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-parboil-pb-cuda.gp
# (writes cfe-parboil-pb-cuda.png and cfe-parboil-pb-cuda.svg; the data is cfe-parboil-pb-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 1092,720 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 1092,720 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-parboil-pb-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot
  set title 'parboil/pb: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H200'
  set ylabel "CFE (1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1
  set key at screen 0.74, screen 0.9 top left vertical Left reverse
  set bmargin 3
  set xtics ('k=3' 0, 'k=2' 1)
  set xrange [-0.6:1.6]
  set lmargin at screen 0.09
  set rmargin at screen 0.72
  set tmargin at screen 0.9
  set bmargin at screen 0.494
  plot \
    "cfe-parboil-pb-cuda.dat" index 0 using 1:2:(0.0526) with boxes lc rgb "#868686" title 'baseline', \
    "cfe-parboil-pb-cuda.dat" index 1 using 1:2:(0.0526) with boxes lc rgb "#4286d3" title 'cpu_tdr[mech=rr,regroup=key]', \
    "cfe-parboil-pb-cuda.dat" index 2 using 1:2:(0.0526) with boxes lc rgb "#5d97d9" title 'cpu_tdr[mech=rr,regroup=sort]', \
    "cfe-parboil-pb-cuda.dat" index 3 using 1:2:(0.0526) with boxes lc rgb "#78a9df" title 'cpu_tdr[mech=rr,regroup=greedy]', \
    "cfe-parboil-pb-cuda.dat" index 4 using 1:2:(0.0526) with boxes lc rgb "#94bae6" title 'cpu_tdr[mech=rr,regroup=greedymax]', \
    "cfe-parboil-pb-cuda.dat" index 5 using 1:2:(0.0526) with boxes lc rgb "#e88848" title 'gpu_tdr[alg=hot,gkey=hits]', \
    "cfe-parboil-pb-cuda.dat" index 6 using 1:2:(0.0526) with boxes lc rgb "#e98c4e" title 'gpu_tdr[alg=hot,gkey=trips]', \
    "cfe-parboil-pb-cuda.dat" index 7 using 1:2:(0.0526) with boxes lc rgb "#ea9055" title 'gpu_tdr[alg=dgi,gkey=hits]', \
    "cfe-parboil-pb-cuda.dat" index 8 using 1:2:(0.0526) with boxes lc rgb "#eb955b" title 'gpu_tdr[alg=dgi,gkey=trips]', \
    "cfe-parboil-pb-cuda.dat" index 9 using 1:2:(0.0526) with boxes lc rgb "#ec9962" title 'gpu_tdr[alg=hot_warp,gkey=hits]', \
    "cfe-parboil-pb-cuda.dat" index 10 using 1:2:(0.0526) with boxes lc rgb "#ec9d68" title 'gpu_tdr[alg=hot_warp,gkey=trips]', \
    "cfe-parboil-pb-cuda.dat" index 11 using 1:2:(0.0526) with boxes lc rgb "#eda16f" title 'gpu_tdr[alg=dgi_scan,gkey=hits]', \
    "cfe-parboil-pb-cuda.dat" index 12 using 1:2:(0.0526) with boxes lc rgb "#eea675" title 'gpu_tdr[alg=dgi_scan,gkey=trips]', \
    "cfe-parboil-pb-cuda.dat" index 13 using 1:2:(0.0526) with boxes lc rgb "#efaa7c" title 'gpu_tdr[alg=static_trips,gkey=trips]'
  unset title
  set tmargin at screen 0.40
  set bmargin at screen 0.074
  set ylabel "speedup there is to win (x)"
  set yrange [0:2.5]
  set ytics autofreq
  set key at screen 0.74, screen 0.40 top left vertical Left reverse
  plot \
    "cfe-parboil-pb-cuda.dat" index 14 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential", \
    "cfe-parboil-pb-cuda.dat" index 15 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling"
  unset multiplot
  set output
}
