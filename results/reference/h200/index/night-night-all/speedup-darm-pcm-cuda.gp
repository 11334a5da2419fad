# speedup-darm-pcm-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-darm-pcm-cuda.gp
# (writes speedup-darm-pcm-cuda.png and speedup-darm-pcm-cuda.svg; the data is speedup-darm-pcm-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-darm-pcm-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'darm/pcm: kernel speedup over baseline (median, 95% interval)'."\n".'cuda: NVIDIA H200'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 4
  set xtics ('bs=32'."\n".'input=ranges' 0, 'bs=64'."\n".'input=ranges' 1, 'bs=128'."\n".'input=ranges' 2, 'bs=256'."\n".'input=ranges' 3, 'bs=64'."\n".'input=random' 4, 'bs=256'."\n".'input=random' 5)
  set xrange [-0.6:5.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-darm-pcm-cuda.dat" index 0 using 1:2:(0.2453) with boxes lc rgb "#f0ae82" title 'gpu_tdr[alg=static]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-darm-pcm-cuda.dat" index 1 using 1:2:(0.2453) with boxes lc rgb "#4acb5b" title 'melded[meld=darm]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-darm-pcm-cuda.dat" index 2 using 1:2:(0.2453) with boxes lc rgb "#98e1a2" title 'melded[meld=pred]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
