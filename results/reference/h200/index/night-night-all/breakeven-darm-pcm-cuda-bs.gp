# breakeven-darm-pcm-cuda-bs.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot breakeven-darm-pcm-cuda-bs.gp
# (writes breakeven-darm-pcm-cuda-bs.png and breakeven-darm-pcm-cuda-bs.svg; the data is breakeven-darm-pcm-cuda-bs.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 1200,580 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 1200,580 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "breakeven-darm-pcm-cuda-bs.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot layout 1,2 title 'darm/pcm: kernel speedup against bs (median, 95% interval); break-even where a line crosses 1'."\n".'cuda: NVIDIA H200'
  set xlabel 'bs'
  set ylabel "speedup (x)"
  set logscale x 2
  set xrange [21.3333:384]
  set xtics ("32" 32, "64" 64, "128" 128, "256" 256)
  set key outside below horizontal maxcols 2 Left reverse
  set yrange [0:2           ]
  set title 'input=ranges'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'break-even (1x)', \
    "breakeven-darm-pcm-cuda-bs.dat" index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#f0ae82" title 'gpu_tdr[alg=static]', \
    "breakeven-darm-pcm-cuda-bs.dat" index 1 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#4acb5b" title 'melded[meld=darm]', \
    "breakeven-darm-pcm-cuda-bs.dat" index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#98e1a2" title 'melded[meld=pred]' 
  set title 'input=random'
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'break-even (1x)', \
    "breakeven-darm-pcm-cuda-bs.dat" index 3 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#f0ae82" title 'gpu_tdr[alg=static]', \
    "breakeven-darm-pcm-cuda-bs.dat" index 4 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#4acb5b" title 'melded[meld=darm]', \
    "breakeven-darm-pcm-cuda-bs.dat" index 5 using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb "#98e1a2" title 'melded[meld=pred]' 
  unset multiplot
  set output
}
