# speedup-frontier-gdt-opencl.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-frontier-gdt-opencl.gp
# (writes speedup-frontier-gdt-opencl.png and speedup-frontier-gdt-opencl.svg; the data is speedup-frontier-gdt-opencl.dat)
source = 'results/reference/h100/frontier-opencl-medium.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,270 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,270 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-frontier-gdt-opencl.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'frontier/gdt (days=504,sectors=24,seed=1): kernel speedup, median and 95% interval'."\n".'against the baseline at wg=256 (untuned); opencl: NVIDIA H100 80GB HBM3'
  set xlabel "speedup (x); dashed: the baseline"
  set xrange [0:*]
  set yrange [3.6:-0.6]
  set lmargin 32
  set grid xtics ytics
  set grid noytics
  unset key
  set ytics ('cpu_tdr[mech=dlt,regroup=key]' 0, 'gpu_tdr[alg=hot_dgi]' 1, 'gpu_tdr[alg=dgi]' 2, 'melded' 3)
  set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb "#333333"
  plot "speedup-frontier-gdt-opencl.dat" index 4 using ($2/2):1:(0):2:($1-0.36):($1+0.36):5 with boxxyerror fc rgb variable fs solid 0.85 notitle, \
    "" index 4 using 2:1:3:4 with xerrorbars pt -1 lc rgb "#222222" notitle, \
    "" index 4 using 4:1:(sprintf(" %.2fx", $2)) with labels left font ",9" notitle
  set output
}
