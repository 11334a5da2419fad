# speedup-darm-bit-opencl.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot speedup-darm-bit-opencl.gp
# (writes speedup-darm-bit-opencl.png and speedup-darm-bit-opencl.svg; the data is speedup-darm-bit-opencl.dat)
source = 'results/reference/h100/darm/darm-opencl.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,520 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,520 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "speedup-darm-bit-opencl.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'darm/bit: kernel speedup over baseline (median, 95% interval)'."\n".'opencl: NVIDIA H100 80GB HBM3'
  set ylabel "speedup (x)"
  set yrange [0:*]
  set key outside right top vertical Left reverse
  set bmargin 4
  set xtics ('bs=32'."\n".'input=desc' 0, 'bs=64'."\n".'input=desc' 1, 'bs=128'."\n".'input=desc' 2, 'bs=256'."\n".'input=desc' 3, 'bs=64'."\n".'input=random' 4, 'bs=256'."\n".'input=random' 5)
  set xrange [-0.6:5.6]
  plot \
    1 with lines dt 2 lw 1.5 lc rgb "#333333" title 'baseline = 1', \
    "speedup-darm-bit-opencl.dat" index 0 using 1:2:(0.2453) with boxes lc rgb "#7f3c10" title 'gpu_tdr[alg=static]', \
    "" index 0 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 0 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-darm-bit-opencl.dat" index 1 using 1:2:(0.2453) with boxes lc rgb "#206f2b" title 'melded[meld=darm]', \
    "" index 1 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 1 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle, \
    "speedup-darm-bit-opencl.dat" index 2 using 1:2:(0.2453) with boxes lc rgb "#98e1a2" title 'melded[meld=pred]', \
    "" index 2 using 1:3:(0):($4-$3) with vectors heads size screen 0.006,90 lc rgb "#222222" notitle, \
    "" index 2 using 1:4:(sprintf("%.2f", $2)) with labels offset 0,0.6 font ",7" notitle
  set output
}
