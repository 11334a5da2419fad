# tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.gp — made by `harness report` from the results named by `source`.
# Edit freely, then redraw in this folder: gnuplot tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.gp
# (writes tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.png and tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.svg; the data is tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.dat)
source = 'results/reference/h100/tuned-frontier/cvp-gpu_tdr.xml'
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 820,560 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 820,560 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'frontier/cvp gpu_tdr[alg=lean_dgi] on cuda: median kernel ms (model, 12 of 207 configs)'
  set xlabel 'wg (work-group size)     [noise=24,seed=1,texture=0.3]'
  set ylabel "nf (DGI neighboring factor)"
  set xtics ("512" 0, "1024" 1)
  set ytics ("16" 0, "32" 1)
  set xrange [-0.5:1.5]
  set yrange [-0.5:1.5]
  set grid noxtics noytics
  set border 15
  set cblabel "ms (lower is better); blank: not run or failed"
  set palette defined (0 "#1a9850", 0.5 "#fee08b", 1 "#d73027")
  set style fill solid 1.0 noborder
  set label 1 "best" at 1,1 center front tc rgb "black" font ",9" offset 0,-0.8
  plot "tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.dat" using 1:2:(0.5):(0.5):3 with boxxyerror lc palette notitle, \
       "tuning-cvp-gpu_tdr_alg_lean_dgi_-cuda-804073063066b4a2.dat" using 1:2:(sprintf("%.3g",$3)) with labels font ",8" notitle
  set output
}
