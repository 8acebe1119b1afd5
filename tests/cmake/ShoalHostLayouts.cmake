# The programs that run across namespace hosts (tests/multihost under mpirun, tests/slurm under
# srun) are listed as entries "name@target@layouts@args...": the test's name, the program's
# CMake target, layouts "HxP,HxP" (H hosts with P PEs each) and the program's arguments.

# Splits one entry into <prefix>_NAME, <prefix>_TARGET, <prefix>_LAYOUTS (a list) and
# <prefix>_ARGS (a list, possibly empty).
function(shoal_host_entry entry prefix)
  string(REPLACE "@" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 target)
  list(GET fields 2 layouts)
  string(REPLACE "," ";" layouts "${layouts}")
  list(SUBLIST fields 3 -1 args)
  list(REMOVE_ITEM args "")
  set(${prefix}_NAME "${name}" PARENT_SCOPE)
  set(${prefix}_TARGET "${target}" PARENT_SCOPE)
  set(${prefix}_LAYOUTS "${layouts}" PARENT_SCOPE)
  set(${prefix}_ARGS "${args}" PARENT_SCOPE)
endfunction()

# Splits a layout "HxP" into <prefix>_HOSTS, <prefix>_PPN and <prefix>_NP (H * P).
function(shoal_host_layout layout prefix)
  string(REPLACE "x" ";" hp "${layout}")
  list(GET hp 0 hosts)
  list(GET hp 1 ppn)
  math(EXPR np "${hosts} * ${ppn}")
  set(${prefix}_HOSTS "${hosts}" PARENT_SCOPE)
  set(${prefix}_PPN "${ppn}" PARENT_SCOPE)
  set(${prefix}_NP "${np}" PARENT_SCOPE)
endfunction()
