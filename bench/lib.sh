# Helpers the benchmark scripts share (sourced): the median of the
# numbers on standard input, one a line.
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
