# study-heatmap-melded.gp — made by `harness report` from results/reference/h100/parboil/parboil-cuda.xml, results/reference/h100/rodinia/srad-bfs-cuda.xml, results/reference/h100/rodinia/lud-cuda.xml, results/reference/h100/darm/darm-cuda.xml, results/reference/h100/darm/mspcm-cuda.xml, results/reference/h100/darm/nqu-cuda.xml, results/reference/study-h100-h200-cuda/h200-parboil.xml, results/reference/study-h100-h200-cuda/h200-rodinia.xml, results/reference/study-h100-h200-cuda/h200-darm-partial.xml.
# Edit freely, then redraw in this folder: gnuplot study-heatmap-melded.gp
# (writes study-heatmap-melded.png and study-heatmap-melded.svg; the data is study-heatmap-melded.dat)
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 900,1006 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 900,1006 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "study-heatmap-melded.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'melded: speedup over the tuned baseline (best configuration; kernel time)'
  set xtics ('cuda:'."\n".'NVIDIA H100 80GB HBM3' 0, 'cuda:'."\n".'NVIDIA H200' 1)
  set ytics ('parboil/lbm shape=spheres' 0, 'parboil/lbm shape=noise' 1, 'parboil/pb k=3' 2, 'parboil/pb k=2' 3, 'parboil/histo' 4, 'rodinia/srad bs=16' 5, 'rodinia/srad bs=32' 6, 'rodinia/bfs deg=rodinia' 7, 'rodinia/bfs deg=rmat' 8, 'rodinia/lud bs=16' 9, 'rodinia/lud bs=32' 10, 'rodinia/lud bs=64' 11, 'darm/bit bs=32 input=desc' 12, 'darm/bit bs=64 input=desc' 13, 'darm/bit bs=128 input=desc' 14, 'darm/bit bs=256 input=desc' 15, 'darm/bit bs=64 input=random' 16, 'darm/bit bs=256 input=random' 17, 'darm/dct bs=8' 18, 'darm/dct bs=16' 19, 'darm/nqu order=natural per_launch=all' 20, 'darm/nqu order=natural per_launch=2wg' 21, 'darm/nqu order=random per_launch=all' 22, 'darm/ms range=1024' 23, 'darm/ms range=2147483647' 24, 'darm/pcm bs=32 input=ranges' 25, 'darm/pcm bs=64 input=ranges' 26, 'darm/pcm bs=128 input=ranges' 27, 'darm/pcm bs=256 input=ranges' 28, 'darm/pcm bs=64 input=random' 29, 'darm/pcm bs=256 input=random' 30)
  set xrange [-0.5:1.5]
  set yrange [30.5:-0.5]
  set bmargin 4
  set grid noxtics noytics
  set border 15
  set tics nomirror
  set cbrange [-2:2]
  set cbtics ("0.25×" -2, "0.5×" -1, "1×" 0, "2×" 1, "4×" 2)
  set cblabel "speedup (log scale); grey: no figure, the state named"
  set palette defined (0 "#d73027", 0.5 "#f7f7f7", 1 "#1a9850")
  set style fill solid 1.0 border lc rgb "#ffffff"
  plot "study-heatmap-melded.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fc palette notitle, \
       "" index 0 using 1:2:4 with labels font ",9" notitle, \
       "" index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#c8c8c8" notitle, \
       "" index 1 using 1:2:3 with labels font ",8" tc rgb "#444444" notitle
  set output
}
