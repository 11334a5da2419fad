# speedup-parboil-pb-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-parboil-pb-cuda.gp
# (writes speedup-parboil-pb-cuda.png and speedup-parboil-pb-cuda.svg; the data is speedup-parboil-pb-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 984,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 984,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-parboil-pb-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'parboil/pb: kernel speedup over baseline (median, 95% interval)'."\n".'cuda: NVIDIA H200'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('k=3' 0, 'k=2' 1)
  set xrange [-0.6:1.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-parboil-pb-cuda.dat" index 0 using 1:2:(0.0566) with boxes lc rgb "#4286d3" title 'cpu_tdr[mech=rr,regroup=key]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 1 using 1:2:(0.0566) with boxes lc rgb "#5d97d9" title 'cpu_tdr[mech=rr,regroup=sort]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 2 using 1:2:(0.0566) with boxes lc rgb "#78a9df" title 'cpu_tdr[mech=rr,regroup=greedy]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 3 using 1:2:(0.0566) with boxes lc rgb "#94bae6" title 'cpu_tdr[mech=rr,regroup=greedymax]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 4 using 1:2:(0.0566) with boxes lc rgb "#e88848" title 'gpu_tdr[alg=hot,gkey=hits]', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 4 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 5 using 1:2:(0.0566) with boxes lc rgb "#e98c4e" title 'gpu_tdr[alg=hot,gkey=trips]', \
    "" index 5 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 6 using 1:2:(0.0566) with boxes lc rgb "#ea9055" title 'gpu_tdr[alg=dgi,gkey=hits]', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 6 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 7 using 1:2:(0.0566) with boxes lc rgb "#eb955b" title 'gpu_tdr[alg=dgi,gkey=trips]', \
    "" index 7 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 7 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 8 using 1:2:(0.0566) with boxes lc rgb "#ec9962" title 'gpu_tdr[alg=hot_warp,gkey=hits]', \
    "" index 8 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 8 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 9 using 1:2:(0.0566) with boxes lc rgb "#ec9d68" title 'gpu_tdr[alg=hot_warp,gkey=trips]', \
    "" index 9 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 9 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 10 using 1:2:(0.0566) with boxes lc rgb "#eda16f" title 'gpu_tdr[alg=dgi_scan,gkey=hits]', \
    "" index 10 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 10 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 11 using 1:2:(0.0566) with boxes lc rgb "#eea675" title 'gpu_tdr[alg=dgi_scan,gkey=trips]', \
    "" index 11 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 11 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-cuda.dat" index 12 using 1:2:(0.0566) with boxes lc rgb "#efaa7c" title 'gpu_tdr[alg=static_trips,gkey=trips]', \
    "" index 12 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 12 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
