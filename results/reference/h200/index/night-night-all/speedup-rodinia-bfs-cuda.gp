# speedup-rodinia-bfs-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-rodinia-bfs-cuda.gp
# (writes speedup-rodinia-bfs-cuda.png and speedup-rodinia-bfs-cuda.svg; the data is speedup-rodinia-bfs-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-rodinia-bfs-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'rodinia/bfs: kernel speedup over baseline (median, 95% interval)'."\n".'cuda: NVIDIA H200'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('deg=rodinia' 0, 'deg=rmat' 1)
  set xrange [-0.6:1.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-rodinia-bfs-cuda.dat" index 0 using 1:2:(0.0920) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 1 using 1:2:(0.0920) with boxes lc rgb "#21558f" title 'cpu_tdr[mech=dlt,regroup=sort]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 2 using 1:2:(0.0920) with boxes lc rgb "#2865aa" title 'cpu_tdr[mech=dlt,regroup=greedy]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 3 using 1:2:(0.0920) with boxes lc rgb "#2e75c5" title 'cpu_tdr[mech=dlt,regroup=greedymax]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 4 using 1:2:(0.0920) with boxes lc rgb "#7f3c10" title 'gpu_tdr[alg=hot]', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 4 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 5 using 1:2:(0.0920) with boxes lc rgb "#863f11" title 'gpu_tdr[alg=dgi]', \
    "" index 5 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 6 using 1:2:(0.0920) with boxes lc rgb "#8c4211" title 'gpu_tdr[alg=hot_warp]', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 6 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-bfs-cuda.dat" index 7 using 1:2:(0.0920) with boxes lc rgb "#934612" title 'gpu_tdr[alg=dgi_scan]', \
    "" index 7 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 7 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
