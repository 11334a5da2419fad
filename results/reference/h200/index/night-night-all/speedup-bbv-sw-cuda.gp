# speedup-bbv-sw-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-bbv-sw-cuda.gp
# (writes speedup-bbv-sw-cuda.png and speedup-bbv-sw-cuda.svg; the data is speedup-bbv-sw-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-bbv-sw-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'bbv/sw: kernel speedup over baseline (median, 95% interval)'."\n".'cuda: NVIDIA H200'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('mode=local' 0, 'mode=global' 1)
  set xrange [-0.6:1.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-bbv-sw-cuda.dat" index 0 using 1:2:(0.1227) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-bbv-sw-cuda.dat" index 1 using 1:2:(0.1227) with boxes lc rgb "#21558f" title 'cpu_tdr[mech=dlt,regroup=sort]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-bbv-sw-cuda.dat" index 2 using 1:2:(0.1227) with boxes lc rgb "#2865aa" title 'cpu_tdr[mech=dlt,regroup=greedy]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-bbv-sw-cuda.dat" index 3 using 1:2:(0.1227) with boxes lc rgb "#2e75c5" title 'cpu_tdr[mech=dlt,regroup=greedymax]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-bbv-sw-cuda.dat" index 4 using 1:2:(0.1227) with boxes lc rgb "#863f11" title 'gpu_tdr[alg=dgi]', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 4 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-bbv-sw-cuda.dat" index 5 using 1:2:(0.1227) with boxes lc rgb "#934612" title 'gpu_tdr[alg=dgi_scan]', \
    "" index 5 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
