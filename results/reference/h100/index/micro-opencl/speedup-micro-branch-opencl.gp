# speedup-micro-branch-opencl.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-micro-branch-opencl.gp
# (writes speedup-micro-branch-opencl.png and speedup-micro-branch-opencl.svg; the data is speedup-micro-branch-opencl.dat)
source = 'results/reference/h100/micro-opencl.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-micro-branch-opencl.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'micro/branch: kernel speedup over baseline (median, 95% interval)'."\n".'opencl: NVIDIA H100 80GB HBM3'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 4
  set xtics ('layers=1'."\n".'paths=2' 0, 'layers=1'."\n".'paths=4' 1, 'layers=1'."\n".'paths=8' 2, 'layers=2'."\n".'paths=2' 3)
  set xrange [-0.6:3.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-micro-branch-opencl.dat" index 0 using 1:2:(0.1472) with boxes lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-opencl.dat" index 1 using 1:2:(0.1472) with boxes lc rgb "#94bae6" title 'cpu_tdr[mech=rr,regroup=key]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-opencl.dat" index 2 using 1:2:(0.1472) with boxes lc rgb "#7f3c10" title 'gpu_tdr[alg=hot]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-opencl.dat" index 3 using 1:2:(0.1472) with boxes lc rgb "#f0b289" title 'gpu_tdr[alg=dgi]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-micro-branch-opencl.dat" index 4 using 1:2:(0.1472) with boxes lc rgb "#3dc750" title 'melded', \
    "" index 4 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 4 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
