# study-heatmap-cpu_tdr.gp — made by `harness report` from results/reference/study-micro-frontier/h100-medium.xml, results/reference/study-micro-frontier/h200-medium.xml, results/reference/study-micro-frontier/pocl-small.xml.
# Edit freely, then redraw in this folder: gnuplot study-heatmap-cpu_tdr.gp
# (writes study-heatmap-cpu_tdr.png and study-heatmap-cpu_tdr.svg; the data is study-heatmap-cpu_tdr.dat)
set datafile separator "\t"
do for [fmt in "png svg"] {
  if (fmt eq "png") {
    set terminal pngcairo noenhanced size 1562,804 font "DejaVu Sans,10"
  } else {
    set terminal svg noenhanced size 1562,804 dynamic font "DejaVu Sans,10" background rgb "white"
  }
  set output "study-heatmap-cpu_tdr.".fmt
  reset
  set datafile separator "\t"
  set style fill solid 0.85 border lc rgb "#555555"
  set grid ytics lc rgb "#dddddd" lt 1
  set border 3
  set tics nomirror out
  set title 'cpu_tdr: speedup over the tuned baseline (best configuration; end-to-end time)'
  set xtics ('cuda: NVIDIA H100 80GB HBM3' 0, 'opencl: NVIDIA H100 80GB HBM3' 1, 'hip: NVIDIA H100 80GB HBM3' 2, 'cuda: NVIDIA H200' 3, 'opencl: NVIDIA H200' 4, 'hip: NVIDIA H200' 5, 'opencl: pthread-skylake-avx512-AMD EPYC' 6) rotate by 30 right
  set ytics ('micro/branch medium layers=1 paths=2' 0, 'micro/branch medium layers=1 paths=4' 1, 'micro/branch medium layers=1 paths=8' 2, 'micro/branch medium layers=2 paths=2' 3, 'micro/branch small layers=1 paths=2' 4, 'micro/branch small layers=1 paths=4' 5, 'micro/branch small layers=1 paths=8' 6, 'micro/branch small layers=2 paths=2' 7, 'frontier/gdt medium' 8, 'frontier/cvp medium' 9, 'frontier/pol medium' 10, 'frontier/gdt small' 11, 'frontier/cvp small' 12, 'frontier/pol small' 13)
  set xrange [-0.5:6.5]
  set yrange [13.5:-0.5]
  set bmargin 21
  set grid noxtics noytics
  set border 15
  set tics nomirror
  set cbrange [-8:8]
  set cbtics ("0.00390625×" -8, "0.0078125×" -7, "0.015625×" -6, "0.03125×" -5, "0.0625×" -4, "0.125×" -3, "0.25×" -2, "0.5×" -1, "1×" 0, "2×" 1, "4×" 2, "8×" 3, "16×" 4, "32×" 5, "64×" 6, "128×" 7, "256×" 8)
  set cblabel "speedup (log scale); grey: no figure, the state named"
  set palette defined (0 "#d73027", 0.5 "#f7f7f7", 1 "#1a9850")
  set style fill solid 1.0 border lc rgb "#ffffff"
  plot "study-heatmap-cpu_tdr.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fc palette notitle, \
       "" index 0 using 1:2:4 with labels font ",9" notitle, \
       "" index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb "#c8c8c8" notitle, \
       "" index 1 using 1:2:3 with labels font ",8" tc rgb "#444444" notitle
  set output
}
