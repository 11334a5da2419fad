# study-heatmap-cpu_tdr.gp — made by `harness report` from darm-cuda.xml, darm-opencl.xml, mspcm-cuda.xml, mspcm-opencl.xml, nqu-cuda.xml, darm-hip.xml.
# Edit freely, then redraw in this folder: gnuplot study-heatmap-cpu_tdr.gp
# (writes study-heatmap-cpu_tdr.png and study-heatmap-cpu_tdr.svg; the data is study-heatmap-cpu_tdr.dat)
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 969,694 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 969,694 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "study-heatmap-cpu_tdr.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'cpu_tdr: speedup over the tuned baseline (best configuration; end-to-end time)'
  set xtics ('cuda:'."\n".'NVIDIA H100 80GB HBM3' 0, 'opencl:'."\n".'NVIDIA H100 80GB HBM3' 1, 'hip:'."\n".'NVIDIA H100 80GB HBM3' 2)
  set ytics ('darm/bit bs=32 input=desc' 0, 'darm/bit bs=64 input=desc' 1, 'darm/bit bs=128 input=desc' 2, 'darm/bit bs=256 input=desc' 3, 'darm/bit bs=64 input=random' 4, 'darm/bit bs=256 input=random' 5, 'darm/dct bs=8' 6, 'darm/dct bs=16' 7, 'darm/nqu order=natural per_launch=all' 8, 'darm/nqu order=natural per_launch=2wg' 9, 'darm/nqu order=random per_launch=all' 10, 'darm/ms range=1024' 11, 'darm/ms range=2147483647' 12, 'darm/pcm bs=32 input=ranges' 13, 'darm/pcm bs=64 input=ranges' 14, 'darm/pcm bs=128 input=ranges' 15, 'darm/pcm bs=256 input=ranges' 16, 'darm/pcm bs=64 input=random' 17, 'darm/pcm bs=256 input=random' 18)
  set xrange [-0.5:2.5]
  set yrange [18.5:-0.5]
  set bmargin 4
  set grid noxtics noytics
  set border 15
  set tics nomirror
  set cbrange [-2:2]
  set cbtics ("0.25×" -2, "0.5×" -1, "1×" 0, "2×" 1, "4×" 2)
  set cblabel "speedup (log scale); grey: no figure, the state named"
  set palette defined (0 "#d73027", 0.5 "#f7f7f7", 1 "#1a9850")
  set style fill solid 1.0 border lc rgb "#ffffff"
  plot "study-heatmap-cpu_tdr.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fc palette notitle, \
       "" index 0 using 1:2:4 with labels font ",9" notitle, \
       "" index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#c8c8c8" notitle, \
       "" index 1 using 1:2:3 with labels font ",8" tc rgb "#444444" notitle
  set output
}
