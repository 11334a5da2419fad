# speedup-frontier-cvp-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-frontier-cvp-cuda.gp
# (writes speedup-frontier-cvp-cuda.png and speedup-frontier-cvp-cuda.svg; the data is speedup-frontier-cvp-cuda.dat)
source = 'results/reference/h100/tuned-frontier/cvp-cpu_tdr-melded.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,300 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,300 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-frontier-cvp-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'frontier/cvp (noise=24,seed=1,texture=0.3): kernel speedup, median and 95% interval'."\n".'against the baseline at minb=0,wg=1024 (tuned); cuda: NVIDIA H100 80GB HBM3'
  set xlabel "speedup (x); dashed: the baseline"
  set xrange [0:*]
  set yrange [4.6:-0.6]
  set lmargin 38
  set grid xtics ytics
  set grid noytics
  unset key
  set ytics ('cpu_tdr[mech=dlt,regroup=key]' 0, 'cpu_tdr[mech=dlt,regroup=sort]' 1, 'cpu_tdr[mech=dlt,regroup=greedy]' 2, 'cpu_tdr[mech=dlt,regroup=greedymax]' 3, 'melded' 4)
  set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb "#333333"
  plot "speedup-frontier-cvp-cuda.dat" index 5 using ($2/2):1:(0):2:($1-0.36):($1+0.36):5 with boxxyerror fc rgb variable fs solid 0.85 notitle, \
    "" index 5 using 2:1:3:4 with xerrorbars pt -1 lc rgb "#222222" notitle, \
    "" index 5 using 4:1:(sprintf(" %.2fx", $2)) with labels left font ",9" notitle
  set output
}
