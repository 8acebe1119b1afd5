#!/usr/bin/env bash
# Scenario tests of oshrun --host / --hostfile with real processes. One scenario per invocation:
#   OSHRUN=... PROBE=... FAILING_PE=... host_tests.sh <scenario>
# Hosts that are all this machine: oshrun runs the job itself (pmix_probe and failing_pe check
# the job). Any other host: oshrun execs another launcher; here that launcher is a fake script
# recording its argv and environment (the handoff needs no network), except in "netns", which
# hands a job to Open MPI's real mpirun across two network-namespace hosts (scripts/netns/).
# shellcheck source=tests/launcher/launcher_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/launcher_lib.sh"
: "${PROBE:?set PROBE to the pmix_probe binary}"
: "${FAILING_PE:?set FAILING_PE to the failing_pe binary}"

readonly kSkip=77
# Never an address of this machine (lo holds 127.0.0.1 only): a "remote" host for the handoff.
readonly kRemote=127.0.0.2

ROOT_ARGS=()
[ "$(id -u)" -eq 0 ] && ROOT_ARGS=(--allow-run-as-root)

# make_fake <path> <what --version prints>: a launcher that records its argv (one word a line)
# in $FAKE_LOG.argv and its environment in $FAKE_LOG.env, says so, and exits 7. Only shell
# builtins: it must run with any PATH.
export FAKE_LOG=$WORK/fake
make_fake() {
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<EOF
#!/bin/bash
if [ "\$1" = --version ]; then echo '$2'; exit 0; fi
printf '%s\n' "\$0" "\$@" >"\$FAKE_LOG.argv"
for v in \$(compgen -e); do printf '%s=%s\n' "\$v" "\${!v}"; done >"\$FAKE_LOG.env"
echo "fake launcher ran"
exit 7
EOF
  chmod 755 "$1"
}
readonly kOpenMpi='mpirun (Open MPI) 4.1.4'
readonly kMpich='HYDRA build details:'

# expect_argv <word>...: the fake launcher ran with exactly these words (argv[0] first).
expect_argv() {
  local got=() i=0 w
  [ -f "$FAKE_LOG.argv" ] || fail "the fake launcher did not run"
  mapfile -t got <"$FAKE_LOG.argv"
  [ "${#got[@]}" -eq "$#" ] ||
    fail "launcher argv has ${#got[@]} words, expected $#: $(printf '[%s] ' "${got[@]}")"
  for w in "$@"; do
    [ "${got[$i]}" = "$w" ] || fail "launcher argv word $i is '${got[$i]}', expected '$w'"
    i=$((i + 1))
  done
}

# The -x words oshrun adds by itself: every SMA_*, SHMEM_*, UCX_* variable set, sorted by name,
# minus the names given as arguments (given with -x already).
inherited_x() {
  local name skip
  for name in $(compgen -e | grep -E '^(SMA|SHMEM|UCX)_' | LC_ALL=C sort -u); do
    for skip in "$@"; do [ "$name" = "$skip" ] && continue 2; done
    printf '%s\n' -x "$name"
  done
}

# run_with_path <PATH> <oshrun args...>: run_oshrun with oshrun's PATH replaced (the helpers of
# launcher_lib.sh keep theirs).
export REAL_OSHRUN=$OSHRUN
cat >"$WORK/with_path" <<'EOF'
#!/bin/bash
PATH=$1 exec "$REAL_OSHRUN" "${@:2}"
EOF
chmod 755 "$WORK/with_path"
run_with_path() { OSHRUN=$WORK/with_path run_oshrun "$@"; }

# The one line saying which launcher and the command: "<hosts> not this one: handing the job
# to <name>: <command>". Sets HANDOFF_CMD to <command>.
expect_handoff_line() {
  local hosts=$1 name=$2 line
  line=$(grep -E "^oshrun: $hosts not this one: handing the job to $name: " "$ERR") ||
    fail "no line saying the job is handed to $name for $hosts"
  [ "$(grep -c '' <<<"$line")" -eq 1 ] || fail "more than one handoff line"
  HANDOFF_CMD=${line#*: handing the job to *: }
}

case "${1:-}" in
parse_errors)  # Bad hosts, hostfiles and slot counts: one clear line, status 2, nothing run.
  run_oshrun --hostfile "$WORK/no-such-file" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: cannot read hostfile '$WORK/no-such-file': No such file or directory\$"
  run_oshrun --machinefile "$WORK" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: cannot read hostfile '$WORK': Is a directory\$"
  hf=$WORK/hosts
  printf 'localhost slots=2\n# a comment\n\nnode-b slots=four\n' >"$hf"
  run_oshrun --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: hostfile '$hf' line 4: invalid slots 'four' \(expected 1\.\.65536\)\$"
  printf 'localhost slots 2\n' >"$hf"
  run_oshrun --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: hostfile '$hf' line 1: cannot read 'slots' \(expected \"host \[slots=N\] \[max_slots=N\]\"\)\$"
  printf 'localhost cores=2\n' >"$hf"
  run_oshrun --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: hostfile '$hf' line 1: unknown setting 'cores' \(expected slots=N or max_slots=N\)\$"
  printf 'localhost:4\n' >"$hf"
  run_oshrun --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: hostfile '$hf' line 1: 'localhost:4': a hostfile gives slots as 'localhost slots=4'\$"
  printf 'localhost slots=4 max_slots=2\n' >"$hf"
  run_oshrun --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: hostfile '$hf' line 1: max_slots 2 is below slots 4\$"
  printf '# nothing but comments\n\n' >"$hf"
  run_oshrun --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: hostfile '$hf' lists no hosts\$"

  # --host syntax: checked with the other options (usage text follows).
  run_oshrun --host "" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: option '--host' needs a list of hosts\$"
  expect_err '^Usage: '
  run_oshrun -H localhost,,node-b "$PROBE"
  expect_rc 2
  expect_err "^oshrun: empty host name in '--host localhost,,node-b'\$"
  for bad in 0 x 65537 -1; do
    run_oshrun --host "localhost:$bad" "$PROBE"
    expect_rc 2
    expect_err "^oshrun: invalid slot count '$bad' for host 'localhost' in --host \(expected 1\.\.65536\)\$"
  done
  run_oshrun --host 'node b' "$PROBE"
  expect_rc 2
  expect_err "^oshrun: invalid host name 'node b' in --host\$"
  run_oshrun --host
  expect_rc 2
  expect_err "^oshrun: option '--host' needs a list of hosts\$"
  run_oshrun --host localhost --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: give either --host or --hostfile, not both\$"
  run_oshrun --hostfile "$hf" --hostfile "$hf" "$PROBE"
  expect_rc 2
  expect_err "^oshrun: only one --hostfile may be given\$"

  # -np above the slots of this host, with the numbers; --oversubscribe lifts the limit.
  run_oshrun -np 5 --host localhost:4 "$PROBE" out="$MARK"
  expect_rc 2
  expect_err "^oshrun: -np 5 is more than the 4 slots of --host localhost:4; ask for at most 4 PEs, or add --oversubscribe\$"
  expect_no_out 'probe'
  run_oshrun -np 3 -H localhost -H localhost "$PROBE" out="$MARK"
  expect_rc 2
  expect_err "^oshrun: -np 3 is more than the 2 slots of --host localhost,localhost; "
  printf 'localhost slots=2\n127.0.0.1 slots=1\n' >"$hf"
  run_oshrun -np 4 --hostfile "$hf" "$PROBE" out="$MARK"
  expect_rc 2
  expect_err "^oshrun: -np 4 is more than the 3 slots of hostfile '$hf'; ask for at most 3 PEs, or add --oversubscribe\$"
  ;;

local_hosts)  # Hosts that are all this machine: oshrun runs the job itself.
  # Without -np the job takes every slot, as with mpirun.
  run_oshrun --host localhost:4 "$PROBE" out="$MARK" nspace
  expect_probe_ok 4
  run_oshrun -np 2 --host localhost:4 "$PROBE" out="$MARK" nspace
  expect_probe_ok 2
  run_oshrun -H "localhost,127.0.0.1,$(hostname)" "$PROBE" out="$MARK" nspace
  expect_probe_ok 3
  run_oshrun -np 3 --oversubscribe --host localhost "$PROBE" out="$MARK" nspace
  expect_probe_ok 3
  # A hostfile naming this host in several ways, with comments, blanks and "slots = N".
  hf=$WORK/hosts
  {
    echo "# this machine only"
    echo "$(hostname) slots=2   # by its name"
    echo ""
    echo "  127.0.0.1 slots = 1 max_slots=4"
    echo "$(hostname -s) count=1"
  } >"$hf"
  addr=$(hostname -I 2>/dev/null | awk '{print $1}')
  [ -n "$addr" ] && echo "$addr slots=1" >>"$hf"
  want=4
  [ -n "$addr" ] && want=5
  run_oshrun --hostfile "$hf" "$PROBE" out="$MARK" nspace
  expect_probe_ok "$want"
  run_oshrun -np 2 --machinefile "$hf" "$PROBE" out="$MARK" nspace
  expect_probe_ok 2
  # A real Shoal program on --host localhost:4: values from puts and atomics across the PEs.
  tag=$((RANDOM + 1000))
  run_oshrun --host localhost:4 "$FAILING_PE" exchange "$tag" 10 "$MARK"
  expect_rc 0
  expect_no_out '^BAD'
  for ((k = 0; k < 4; k++)); do
    [ "$(grep -c "^ok $k of 4 tag $tag\$" "$OUT")" -eq 1 ] || fail "no single ok line of PE $k"
  done
  ;;

handoff_mpirun)  # Another host: Open MPI's command line, the line printed, the exit status.
  # shellcheck disable=SC2016  # meant literally: the quoting must survive a shell
  dollar='$HOME'
  make_fake "$WORK/bin/mpirun" "$kOpenMpi"
  export SMA_LOG_LEVEL=warn SHMEM_SYMMETRIC_SIZE=64M UCX_TLS=tcp,self SHOAL_TEST_A=from-caller
  export OTHER_VARIABLE=not-forwarded
  run_oshrun --launcher "$WORK/bin/mpirun" -np 4 --host "localhost:2,$kRemote:2" \
    -x SHOAL_TEST_A -x SHOAL_TEST_B='two words' -x SHOAL_TEST_UNSET -x UCX_TLS=rc \
    --tag-output --bind-to core --oversubscribe \
    "$PROBE" arg1 'arg two' "it's" "$dollar" "$MARK"
  expect_rc 7   # the launcher's status: oshrun is the launcher now (exec)
  expect_out '^fake launcher ran$'
  mapfile -t inherited < <(inherited_x UCX_TLS)
  expect_argv "$WORK/bin/mpirun" "${ROOT_ARGS[@]}" -np 4 --host "localhost:2,$kRemote:2" \
    --oversubscribe --tag-output --bind-to core \
    -x SHOAL_TEST_A -x 'SHOAL_TEST_B=two words' -x UCX_TLS=rc "${inherited[@]}" \
    "$PROBE" arg1 'arg two' "it's" "$dollar" "$MARK"
  printf '%s\n' "${inherited[@]}" | grep -qx SMA_LOG_LEVEL || fail "SMA_LOG_LEVEL not forwarded"
  printf '%s\n' "${inherited[@]}" | grep -qx SHMEM_SYMMETRIC_SIZE ||
    fail "SHMEM_SYMMETRIC_SIZE not forwarded"
  grep -qx 'SHOAL_TEST_A=from-caller' "$FAKE_LOG.env" || fail "environment not kept"
  expect_err "^oshrun: warning: -x SHOAL_TEST_UNSET: SHOAL_TEST_UNSET is not set; not passed to the PEs\$"
  # The line printed is the command, quoted so that a shell runs exactly the same.
  expect_handoff_line "host 127\.0\.0\.2 is" mpirun
  cp "$FAKE_LOG.argv" "$WORK/first.argv"
  rm "$FAKE_LOG.argv"
  (eval "$HANDOFF_CMD") >/dev/null 2>&1
  cmp -s "$FAKE_LOG.argv" "$WORK/first.argv" ||
    fail "the printed command runs something else: $HANDOFF_CMD"

  # A hostfile is passed on as given; without -np the launcher fills the slots; -q: no line.
  printf 'localhost slots=2\nnode-b slots=2 # another\nnode-c\n' >"$WORK/hosts"
  run_oshrun -q --launcher "$WORK/bin/mpirun" --hostfile "$WORK/hosts" --bind-to none \
    "$PROBE" "$MARK"
  expect_rc 7
  mapfile -t inherited < <(inherited_x)
  expect_argv "$WORK/bin/mpirun" "${ROOT_ARGS[@]}" --hostfile "$WORK/hosts" --bind-to none \
    "${inherited[@]}" "$PROBE" "$MARK"
  expect_no_err 'handing the job'
  run_oshrun --launcher "$WORK/bin/mpirun" --hostfile "$WORK/hosts" "$PROBE" "$MARK"
  expect_handoff_line "hosts node-b, node-c are" mpirun
  ;;

handoff_prterun)  # PRRTE's spellings of the same job.
  make_fake "$WORK/bin/prterun" "prterun (PRRTE) 3.0.0"
  export UCX_TLS=tcp,self
  run_oshrun --launcher "$WORK/bin/prterun" -np 3 -H "$kRemote:3" --tag-output \
    --oversubscribe --bind-to none -x SHOAL_TEST_B=v "$PROBE" "$MARK"
  expect_rc 7
  mapfile -t inherited < <(inherited_x)
  expect_argv "$WORK/bin/prterun" "${ROOT_ARGS[@]}" --np 3 --host "$kRemote:3" \
    --map-by :OVERSUBSCRIBE --output tag --bind-to none -x SHOAL_TEST_B=v "${inherited[@]}" \
    "$PROBE" "$MARK"
  expect_handoff_line "host 127\.0\.0\.2 is" prterun
  ;;

handoff_srun)  # Inside a Slurm allocation: srun's spelling of the job (issue 20); tests/slurm
  # runs the real one under salloc and sbatch.
  make_fake "$WORK/slurm/srun" "slurm 22.05.8"
  export SMA_LOG_LEVEL=warn SHOAL_TEST_A=from-caller
  slurm_path=$WORK/slurm:$PATH
  export SLURM_JOB_ID=42
  unset SLURM_STEP_ID
  run_with_path "$slurm_path" -np 4 -x SHOAL_TEST_A -x SHOAL_TEST_B='two words' \
    -x SHOAL_TEST_UNSET --tag-output --bind-to core --oversubscribe "$PROBE" 'arg two' "$MARK"
  expect_rc 7   # srun's status: oshrun is srun now (exec)
  expect_argv "$WORK/slurm/srun" --mpi=pmix -n 4 --kill-on-bad-exit=1 --overcommit --label \
    --cpu-bind=cores '--export=ALL,SHOAL_TEST_B=two words' "$PROBE" 'arg two' "$MARK"
  grep -qx 'SMA_LOG_LEVEL=warn' "$FAKE_LOG.env" || fail "SMA_LOG_LEVEL not in srun's environment"
  grep -qx 'SHOAL_TEST_A=from-caller' "$FAKE_LOG.env" || fail "environment not kept"
  expect_err "^oshrun: warning: -x SHOAL_TEST_UNSET: SHOAL_TEST_UNSET is not set; not passed to the PEs\$"
  line=$(grep -E '^oshrun: inside Slurm job 42: handing the job to srun: ' "$ERR") ||
    fail "no line saying the job is handed to srun"
  cp "$FAKE_LOG.argv" "$WORK/first.argv"
  rm "$FAKE_LOG.argv"
  (eval "${line#*: handing the job to srun: }") >/dev/null 2>&1
  cmp -s "$FAKE_LOG.argv" "$WORK/first.argv" || fail "the printed command runs something else: $line"
  # Without -np: the allocation's tasks; -q: no line; --bind-to none.
  run_with_path "$slurm_path" -q --bind-to none "$PROBE" "$MARK"
  expect_rc 7
  expect_argv "$WORK/slurm/srun" --mpi=pmix --kill-on-bad-exit=1 --cpu-bind=none --export=ALL \
    "$PROBE" "$MARK"
  expect_no_err 'handing the job'
  # A value srun's --export cannot carry: status 2, nothing run.
  rm -f "$FAKE_LOG.argv"
  run_with_path "$slurm_path" -np 2 -x SHOAL_TEST_B=a,b "$PROBE" "$MARK"
  expect_rc 2
  expect_err "^oshrun: -x SHOAL_TEST_B=a,b: srun's --export cannot carry a value with a comma"
  [ ! -f "$FAKE_LOG.argv" ] || fail "srun ran with a -x value it cannot carry"
  # oshrun runs the job itself: with --no-srun, within a step (SLURM_STEP_ID), and with --host.
  run_with_path "$slurm_path" --no-srun -np 2 "$PROBE" out="$MARK" nspace
  expect_probe_ok 2
  expect_no_err 'srun'
  SLURM_STEP_ID=0 run_with_path "$slurm_path" -np 2 "$PROBE" out="$MARK" nspace
  expect_probe_ok 2
  run_with_path "$slurm_path" --host localhost:2 "$PROBE" out="$MARK" nspace
  expect_probe_ok 2
  [ ! -f "$FAKE_LOG.argv" ] || fail "srun ran although oshrun should have run the job"
  # No srun in PATH: a warning, and the job on this node.
  run_with_path "$WORK/no-such-dir" -np 2 "$PROBE" out="$MARK" nspace
  expect_rc 0
  [ "$(grep -c '^probe ok rank [01] of 2$' "$OUT")" -eq 2 ] || fail "not 2 ranks on this node"
  expect_err "^oshrun: warning: inside Slurm job 42 but srun is not in PATH: starting the PEs on this node only\$"
  # Outside an allocation only --launcher srun hands the job over, and it takes no hosts.
  unset SLURM_JOB_ID
  run_with_path "$slurm_path" -np 3 "$PROBE" out="$MARK" nspace
  expect_probe_ok 3
  run_oshrun --launcher "$WORK/slurm/srun" -np 3 "$PROBE" "$MARK"
  expect_rc 7
  expect_argv "$WORK/slurm/srun" --mpi=pmix -n 3 --kill-on-bad-exit=1 --export=ALL "$PROBE" "$MARK"
  expect_err "^oshrun: --launcher $WORK/slurm/srun: handing the job to srun: "
  run_oshrun --launcher "$WORK/slurm/srun" -H "$kRemote:2" "$PROBE" "$MARK"
  expect_rc 2
  expect_err "leave out --host and --hostfile with --launcher"
  ;;

launcher_choice)  # prterun, else Open MPI's mpirun, from PATH; --launcher; none: what to install.
  make_fake "$WORK/both/prterun" "prterun (PRRTE) 3.0.0"
  make_fake "$WORK/both/mpirun" "$kOpenMpi"
  make_fake "$WORK/ompi/mpirun" "$kOpenMpi"
  make_fake "$WORK/debian/mpirun" "$kMpich"
  make_fake "$WORK/debian/mpirun.openmpi" "$kOpenMpi"
  make_fake "$WORK/mpich/mpirun" "$kMpich"
  mkdir -p "$WORK/empty"
  run_with_path "$WORK/both" -np 2 --host "$kRemote" "$PROBE" "$MARK"
  expect_rc 7
  expect_handoff_line "host 127\.0\.0\.2 is" prterun
  [ "$(head -n 1 "$FAKE_LOG.argv")" = "$WORK/both/prterun" ] || fail "prterun not preferred"
  run_with_path "$WORK/ompi" -np 2 --host "$kRemote" "$PROBE" "$MARK"
  expect_rc 7
  mapfile -t inherited < <(inherited_x)
  expect_argv "$WORK/ompi/mpirun" "${ROOT_ARGS[@]}" -np 2 --host "$kRemote" \
    "${inherited[@]}" "$PROBE" "$MARK"
  # Debian with MPICH as the default mpirun: Open MPI's under its own name.
  run_with_path "$WORK/debian" -np 2 --host "$kRemote" "$PROBE" "$MARK"
  expect_rc 7
  expect_handoff_line "host 127\.0\.0\.2 is" 'mpirun\.openmpi'
  [ "$(head -n 1 "$FAKE_LOG.argv")" = "$WORK/debian/mpirun.openmpi" ] ||
    fail "mpirun.openmpi not chosen over MPICH's mpirun"
  # --launcher NAME is found in PATH.
  run_with_path "$WORK/ompi" --launcher mpirun -np 2 --host "$kRemote" "$PROBE" "$MARK"
  expect_rc 7
  [ "$(head -n 1 "$FAKE_LOG.argv")" = "$WORK/ompi/mpirun" ] || fail "--launcher mpirun"

  # No launcher: the hosts, why, and what to install.
  need="not this one, and jobs on other hosts need prterun or Open MPI's mpirun"
  install='; install one \(Debian: apt-get install openmpi-bin\) or give --launcher PATH$'
  rm -f "$FAKE_LOG.argv"
  run_with_path "$WORK/mpich" -np 2 --host "node-a,$kRemote" "$PROBE" "$MARK"
  expect_rc 127
  expect_err "^oshrun: hosts node-a, 127\.0\.0\.2 are $need: $WORK/mpich/mpirun is not Open MPI's mpirun \(its --version says 'HYDRA build details:'\)$install"
  run_with_path "$WORK/empty" -np 2 --host "node-a:2" "$PROBE" "$MARK"
  expect_rc 127
  expect_err "^oshrun: host node-a is $need: neither prterun nor mpirun is in PATH$install"
  run_oshrun --launcher "$WORK/no-such-launcher" --host "$kRemote" "$PROBE" "$MARK"
  expect_rc 127
  expect_err "^oshrun: host 127\.0\.0\.2 is $need: cannot use --launcher '$WORK/no-such-launcher': No such file or directory$install"
  [ ! -e "$FAKE_LOG.argv" ] || fail "a launcher ran"
  ;;

netns)  # The real thing: oshrun on host 1 hands the job to Open MPI's mpirun, PEs on 2 hosts.
  netns_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts/netns" && pwd)
  mpirun=$(command -v mpirun) || { echo "SKIPPED: mpirun (openmpi-bin) is not installed"; exit $kSkip; }
  "$mpirun" --version 2>&1 | grep -q "Open MPI" ||
    { echo "SKIPPED: $mpirun is not Open MPI's"; exit $kSkip; }
  command -v unshare >/dev/null || { echo "SKIPPED: unshare (util-linux) is missing"; exit $kSkip; }
  why=$("$netns_dir/netns_testbed.sh" check) || { echo "SKIPPED: $why"; exit $kSkip; }

  prefix=shoal-ht$$
  "$netns_dir/netns_testbed.sh" sweep shoal-ht  # beds of earlier runs killed before cleanup
  trap '"$netns_dir/netns_testbed.sh" down "$prefix"; end_jobs; rm -rf "$WORK"' EXIT
  "$netns_dir/netns_testbed.sh" up "$prefix" 2 "$WORK/bed-hosts" || fail "could not build the bed"
  h1=$("$netns_dir/netns_testbed.sh" address 1)
  h2=$("$netns_dir/netns_testbed.sh" address 2)
  mkdir "$WORK/ompi"
  # Open MPI reads its settings from OMPI_MCA_* too: the remote-start agent entering the
  # namespaces, the bed's network, session directories inside $WORK. oshrun passes its
  # environment on to mpirun (exec) untouched.
  export SHOAL_NETNS_PREFIX=$prefix OMPI_MCA_plm_rsh_agent=$netns_dir/netns_rsh.sh \
    OMPI_MCA_plm_rsh_no_tree_spawn=1 OMPI_MCA_oob_tcp_if_include=198.18.0.0/15 \
    OMPI_MCA_orte_tmpdir_base=$WORK/ompi
  extra=()
  [ -n "${LD_LIBRARY_PATH:-}" ] && extra=(-x LD_LIBRARY_PATH)
  run_on_host1() {
    timeout -k 5 100 "$netns_dir/netns_testbed.sh" exec "$prefix" 1 \
      "$OSHRUN" --host "$h1:2,$h2:2" "${extra[@]}" "$@" </dev/null >"$OUT" 2>"$ERR"
    RC=$?
    [ "$RC" -ne 124 ] || fail "the job did not end within 100 s"
  }
  # Where the PEs ran: two on each host (host names are <prefix>-hK inside the bed).
  # shellcheck disable=SC2016  # expanded by each PE's shell, on its host
  run_on_host1 -np 4 --bind-to none sh -c 'echo "on $(hostname)"'
  expect_rc 0
  expect_handoff_line "host ${h2//./\\.} is" mpirun
  [[ "$HANDOFF_CMD" == "$mpirun "* ]] || fail "not handed to $mpirun: $HANDOFF_CMD"
  [ "$(grep -cx "on $prefix-h1" "$OUT")" -eq 2 ] || fail "not 2 PEs on host 1"
  [ "$(grep -cx "on $prefix-h2" "$OUT")" -eq 2 ] || fail "not 2 PEs on host 2"
  # A Shoal program across the hosts: puts and atomics between them, values checked.
  tag=$((RANDOM + 1000))
  run_on_host1 --bind-to none "$FAILING_PE" exchange "$tag" 5 "$MARK"
  expect_rc 0
  expect_no_out '^BAD'
  for ((k = 0; k < 4; k++)); do
    [ "$(grep -c "^ok $k of 4 tag $tag\$" "$OUT")" -eq 1 ] || fail "no single ok line of PE $k"
  done
  ! pgrep -f -- "$MARK" >/dev/null || fail "PEs left running: $(pgrep -a -f -- "$MARK")"
  ;;

*)
  echo "unknown scenario '${1:-}'" >&2
  exit 2
  ;;
esac
echo "PASS: $*"
