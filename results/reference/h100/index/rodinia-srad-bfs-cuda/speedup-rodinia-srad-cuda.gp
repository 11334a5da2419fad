# speedup-rodinia-srad-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-rodinia-srad-cuda.gp
# (writes speedup-rodinia-srad-cuda.png and speedup-rodinia-srad-cuda.svg; the data is speedup-rodinia-srad-cuda.dat)
source = 'results/reference/h100/rodinia/srad-bfs-cuda.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-rodinia-srad-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'rodinia/srad: kernel speedup over baseline (median, 95% interval)'."\n".'cuda: NVIDIA H100 80GB HBM3'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 3
  set xtics ('bs=16' 0, 'bs=32' 1)
  set xrange [-0.6:1.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-rodinia-srad-cuda.dat" index 0 using 1:2:(0.1840) with boxes lc rgb "#206f2b" title 'melded[meld=all]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-srad-cuda.dat" index 1 using 1:2:(0.1840) with boxes lc rgb "#32ab42" title 'melded[meld=sat]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-srad-cuda.dat" index 2 using 1:2:(0.1840) with boxes lc rgb "#5cd06b" title 'melded[meld=pos]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-rodinia-srad-cuda.dat" index 3 using 1:2:(0.1840) with boxes lc rgb "#98e1a2" title 'melded[meld=darm]', \
    "" index 3 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 3 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
