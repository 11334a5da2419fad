# speedup-micro-branch-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-micro-branch-cuda.gp
# (writes speedup-micro-branch-cuda.png and speedup-micro-branch-cuda.svg; the data is speedup-micro-branch-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 1896,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 1896,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-micro-branch-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'micro/branch: kernel speedup over baseline (median, 95% interval)'."\n".'cuda: NVIDIA H200'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 4
  set xtics ('layers=1'."\n".'paths=2' 0, 'layers=1'."\n".'paths=4' 1, 'layers=1'."\n".'paths=8' 2, 'layers=2'."\n".'paths=2' 3)
  set xrange [-0.6:3.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-micro-branch-cuda.dat" index 0 using 1:2:(0.0460) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 1 using 1:2:(0.0460) with boxes lc rgb "#21558f" title 'cpu_tdr[mech=dlt,regroup=sort]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 2 using 1:2:(0.0460) with boxes lc rgb "#2865aa" title 'cpu_tdr[mech=dlt,regroup=greedy]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 3 using 1:2:(0.0460) with boxes lc rgb "#2e75c5" title 'cpu_tdr[mech=dlt,regroup=greedymax]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 4 using 1:2:(0.0460) with boxes lc rgb "#4286d3" title 'cpu_tdr[mech=rr,regroup=key]', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 4 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 5 using 1:2:(0.0460) with boxes lc rgb "#5d97d9" title 'cpu_tdr[mech=rr,regroup=sort]', \
    "" index 5 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 6 using 1:2:(0.0460) with boxes lc rgb "#78a9df" title 'cpu_tdr[mech=rr,regroup=greedy]', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 6 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 7 using 1:2:(0.0460) with boxes lc rgb "#94bae6" title 'cpu_tdr[mech=rr,regroup=greedymax]', \
    "" index 7 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 7 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 8 using 1:2:(0.0460) with boxes lc rgb "#7f3c10" title 'gpu_tdr[alg=hot]', \
    "" index 8 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 8 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 9 using 1:2:(0.0460) with boxes lc rgb "#863f11" title 'gpu_tdr[alg=dgi]', \
    "" index 9 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 9 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 10 using 1:2:(0.0460) with boxes lc rgb "#8c4211" title 'gpu_tdr[alg=hot_warp]', \
    "" index 10 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 10 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 11 using 1:2:(0.0460) with boxes lc rgb "#934612" title 'gpu_tdr[alg=dgi_scan]', \
    "" index 11 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 11 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 12 using 1:2:(0.0460) with boxes lc rgb "#994913" title 'gpu_tdr[alg=scan_multi]', \
    "" index 12 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 12 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 13 using 1:2:(0.0460) with boxes lc rgb "#a04c14" title 'gpu_tdr[alg=count_multi]', \
    "" index 13 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 13 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 14 using 1:2:(0.0460) with boxes lc rgb "#a64f15" title 'gpu_tdr[alg=adapt_scan]', \
    "" index 14 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 14 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-cuda.dat" index 15 using 1:2:(0.0460) with boxes lc rgb "#206f2b" title 'melded', \
    "" index 15 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 15 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
