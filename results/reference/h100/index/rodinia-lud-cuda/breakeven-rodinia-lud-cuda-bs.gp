# breakeven-rodinia-lud-cuda-bs.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot breakeven-rodinia-lud-cuda-bs.gp
# (writes breakeven-rodinia-lud-cuda-bs.png and breakeven-rodinia-lud-cuda-bs.svg; the data is breakeven-rodinia-lud-cuda-bs.dat)
source = 'results/reference/h100/rodinia/lud-cuda.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,580 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,580 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "breakeven-rodinia-lud-cuda-bs.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot layout 1,1 title 'rodinia/lud: kernel speedup against bs (median, 95% interval); break-even where a line crosses 1'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set xlabel 'bs'
  set ylabel "speedup (x)"
  set xrange [13.12:66.88]
  set xtics ("16" 16, "32" 32, "64" 64)
  set key outside below horizontal maxcols 2 Left reverse
  set yrange [0:1.5         ]
  set title ''
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'break-even (1x)', \
    "breakeven-rodinia-lud-cuda-bs.dat" index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#206f2b" title 'melded[meld=wave]', \
    "breakeven-rodinia-lud-cuda-bs.dat" index 1 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#98e1a2" title 'melded[meld=always]' 
  unset multiplot
  set output
}
