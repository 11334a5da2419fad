# cfe-darm-bit-cuda.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-darm-bit-cuda.gp
# (writes cfe-darm-bit-cuda.png and cfe-darm-bit-cuda.svg; the data is cfe-darm-bit-cuda.dat)
source = 'results/reference/h200/night/night-all.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 996,540 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 996,540 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-darm-bit-cuda.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'darm/bit: control-flow efficiency, baseline (before) and variants (after)'."\n".'cuda: NVIDIA H200'
  set ylabel "CFE (bars; 1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1 nomirror
  set y2label "speedup (x): marks"
  set y2range [0:2.5]
  set y2tics nomirror
  set border 11
  set key outside right top vertical Left reverse
  set bmargin 4
  set xtics ('bs=32'."\n".'input=desc' 0, 'bs=64'."\n".'input=desc' 1, 'bs=128'."\n".'input=desc' 2, 'bs=256'."\n".'input=desc' 3, 'bs=64'."\n".'input=random' 4, 'bs=256'."\n".'input=random' 5)
  set xrange [-0.6:5.6]
  plot \
    "cfe-darm-bit-cuda.dat" index 0 using 1:2:(0.1840) with boxes lc rgb "#4e79a7" title 'baseline', \
    "cfe-darm-bit-cuda.dat" index 1 using 1:2:(0.1840) with boxes lc rgb "#8c564b" title 'gpu_tdr[alg=static]', \
    "cfe-darm-bit-cuda.dat" index 2 using 1:2:(0.1840) with boxes lc rgb "#9c755f" title 'melded[meld=darm]', \
    "cfe-darm-bit-cuda.dat" index 3 using 1:2:(0.1840) with boxes lc rgb "#4e79a7" title 'melded[meld=pred]', \
    "cfe-darm-bit-cuda.dat" index 4 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential (right axis)", \
    "cfe-darm-bit-cuda.dat" index 5 using ($1-0.45):2:(0.9):(0) axes x1y2 with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling (right axis)"
  set output
}
