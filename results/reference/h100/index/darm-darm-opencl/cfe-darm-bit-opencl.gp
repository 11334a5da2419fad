# cfe-darm-bit-opencl.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot cfe-darm-bit-opencl.gp
# (writes cfe-darm-bit-opencl.png and cfe-darm-bit-opencl.svg; the data is cfe-darm-bit-opencl.dat)
source = 'results/reference/h100/darm/darm-opencl.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 980,720 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 980,720 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "cfe-darm-bit-opencl.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set multiplot
  set title 'darm/bit: control-flow efficiency, baseline (before) and variants (after)'."\n".'opencl: NVIDIA H100 80GB HBM3'
  set ylabel "CFE (1 = no divergence)"
  set yrange [0:1.12]
  set ytics 0,0.2,1
  set key at screen 0.74, screen 0.9 top left vertical Left reverse
  set bmargin 4
  set xtics ('bs=32'."\n".'input=desc' 0, 'bs=64'."\n".'input=desc' 1, 'bs=128'."\n".'input=desc' 2, 'bs=256'."\n".'input=desc' 3, 'bs=64'."\n".'input=random' 4, 'bs=256'."\n".'input=random' 5)
  set xrange [-0.6:5.6]
  set lmargin at screen 0.09
  set rmargin at screen 0.72
  set tmargin at screen 0.9
  set bmargin at screen 0.516
  plot \
    "cfe-darm-bit-opencl.dat" index 0 using 1:2:(0.7360) with boxes lc rgb "#868686" title 'baseline'
  unset title
  set tmargin at screen 0.40
  set bmargin at screen 0.096
  set ylabel "speedup there is to win (x)"
  set yrange [0:2]
  set ytics autofreq
  set key at screen 0.74, screen 0.40 top left vertical Left reverse
  plot \
    "cfe-darm-bit-opencl.dat" index 1 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#000000" title "1/CFE of baseline: potential", \
    "cfe-darm-bit-opencl.dat" index 2 using ($1-0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "#c0392b" title "remap ceiling"
  unset multiplot
  set output
}
