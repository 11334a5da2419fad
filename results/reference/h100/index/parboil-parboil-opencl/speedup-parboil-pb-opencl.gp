# speedup-parboil-pb-opencl.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-parboil-pb-opencl.gp
# (writes speedup-parboil-pb-opencl.png and speedup-parboil-pb-opencl.svg; the data is speedup-parboil-pb-opencl.dat)
source = 'results/reference/h100/parboil/parboil-opencl.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-parboil-pb-opencl.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'parboil/pb: kernel speedup over baseline (median, 95% interval)'."\n".'opencl: NVIDIA H100 80GB HBM3'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('k=3' 0, 'k=2' 1)
  set xrange [-0.6:1.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-parboil-pb-opencl.dat" index 0 using 1:2:(0.0920) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=rr,regroup=key]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 1 using 1:2:(0.0920) with boxes lc rgb "#2661a3" title 'cpu_tdr[mech=rr,regroup=sort]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 2 using 1:2:(0.0920) with boxes lc rgb "#357dd0" title 'cpu_tdr[mech=rr,regroup=greedy]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 3 using 1:2:(0.0920) with boxes lc rgb "#649bdb" title 'cpu_tdr[mech=rr,regroup=greedymax]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 4 using 1:2:(0.0920) with boxes lc rgb "#d3641a" title 'gpu_tdr[alg=hot,gkey=trips]', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 4 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 5 using 1:2:(0.0920) with boxes lc rgb "#e67c35" title 'gpu_tdr[alg=dgi,gkey=trips]', \
    "" index 5 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 5 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 6 using 1:2:(0.0920) with boxes lc rgb "#eb975f" title 'gpu_tdr[alg=hot,gkey=hits]', \
    "" index 6 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 6 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-parboil-pb-opencl.dat" index 7 using 1:2:(0.0920) with boxes lc rgb "#f0b289" title 'gpu_tdr[alg=dgi,gkey=hits]', \
    "" index 7 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 7 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
