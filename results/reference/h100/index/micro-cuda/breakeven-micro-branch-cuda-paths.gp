# breakeven-micro-branch-cuda-paths.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot breakeven-micro-branch-cuda-paths.gp
# (writes breakeven-micro-branch-cuda-paths.png and breakeven-micro-branch-cuda-paths.svg; the data is breakeven-micro-branch-cuda-paths.dat)
source = 'results/reference/h100/micro-cuda.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,580 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,580 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "breakeven-micro-branch-cuda-paths.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot layout 1,1 title 'micro/branch: kernel speedup against paths (median, 95% interval); break-even where a line crosses 1'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set xlabel 'paths'
  set ylabel "speedup (x)"
  set xrange [1.64:8.36]
  set xtics ("2" 2, "4" 4, "8" 8)
  set key outside below horizontal maxcols 2 Left reverse
  set yrange [0:7           ]
  set title ''
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'break-even (1x)', \
    "breakeven-micro-branch-cuda-paths.dat" index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#1b4474" title 'cpu_tdr[mech=dlt,regroup=key]', \
    "breakeven-micro-branch-cuda-paths.dat" index 1 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#94bae6" title 'cpu_tdr[mech=rr,regroup=key]', \
    "breakeven-micro-branch-cuda-paths.dat" index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#7f3c10" title 'gpu_tdr[alg=hot]', \
    "breakeven-micro-branch-cuda-paths.dat" index 3 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#c55d18" title 'gpu_tdr[alg=dgi]', \
    "breakeven-micro-branch-cuda-paths.dat" index 4 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#e88543" title 'gpu_tdr[alg=hot_warp]', \
    "breakeven-micro-branch-cuda-paths.dat" index 5 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#f0b289" title 'gpu_tdr[alg=dgi_scan]', \
    "breakeven-micro-branch-cuda-paths.dat" index 6 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#3dc750" title 'melded' 
  unset multiplot
  set output
}
