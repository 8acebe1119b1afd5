! Fortran atomics, locks and waits: SHMEM_INT4/INT8_{SWAP,CSWAP,FADD,FINC,ADD,INC,FETCH,SET},
! SHMEM_REAL4/REAL8_{SWAP,FETCH,SET}, SHMEM_SWAP, SHMEM_{SET,TEST,CLEAR}_LOCK around a shared
! counter, and SHMEM_[INT4_|INT8_]WAIT[_UNTIL] along a ring. Every PE checks its results; the
! program exits non-zero on any PE with a wrong value.
program f_amo
  implicit none
  include 'shmem.fh'
  integer :: shmem_my_pe, shmem_n_pes, shmem_test_lock, shmem_swap
  integer*4 :: shmem_int4_swap, shmem_int4_cswap, shmem_int4_fadd, shmem_int4_finc
  integer*4 :: shmem_int4_fetch
  integer*8 :: shmem_int8_swap, shmem_int8_cswap, shmem_int8_fadd, shmem_int8_finc
  integer*8 :: shmem_int8_fetch
  real*4 :: shmem_real4_swap, shmem_real4_fetch
  real*8 :: shmem_real8_swap, shmem_real8_fetch
  integer :: me, npes, right, left, nfail, k, ok
  integer*4 :: a4, r4, v4, c4
  integer*8 :: a8, r8, v8, c8
  real*4 :: x4, y4
  real*8 :: x8, y8
  integer :: di, ri
  integer*8 :: lock
  integer :: counter, seen
  integer*4 :: flag4
  integer*8 :: flag8
  integer :: flagi
  save

  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  right = mod(me + 1, npes)
  left = mod(me - 1 + npes, npes)
  nfail = 0

  ! ---- fetching and non-fetching AMOs on the right neighbour's variables ------------------
  a4 = 0; a8 = 0; x4 = 0; x8 = 0; di = 0
  call shmem_barrier_all()
  ! swap: each PE swaps its number in; gets the initial 0
  v4 = me + 10
  r4 = shmem_int4_swap(a4, v4, right)
  if (r4 /= 0) call fail('int4_swap', int(r4))
  v8 = me + 20
  r8 = shmem_int8_swap(a8, v8, right)
  if (r8 /= 0) call fail('int8_swap', int(r8))
  y4 = real(me) + 0.5
  if (shmem_real4_swap(x4, y4, right) /= 0.0) call fail('real4_swap', 0)
  y8 = dble(me) + 0.25d0
  if (shmem_real8_swap(x8, y8, right) /= 0.0d0) call fail('real8_swap', 0)
  ri = me + 30
  if (shmem_swap(di, ri, right) /= 0) call fail('shmem_swap', 0)
  call shmem_barrier_all()
  if (a4 /= left + 10) call fail('int4_swap value', int(a4))
  if (a8 /= left + 20) call fail('int8_swap value', int(a8))
  if (x4 /= real(left) + 0.5) call fail('real4_swap value', 0)
  if (x8 /= dble(left) + 0.25d0) call fail('real8_swap value', 0)
  if (di /= left + 30) call fail('shmem_swap value', di)
  call shmem_barrier_all()

  ! fetch and set
  if (shmem_int4_fetch(a4, right) /= me + 10) call fail('int4_fetch', 0)
  if (shmem_int8_fetch(a8, right) /= me + 20) call fail('int8_fetch', 0)
  if (shmem_real4_fetch(x4, right) /= real(me) + 0.5) call fail('real4_fetch', 0)
  if (shmem_real8_fetch(x8, right) /= dble(me) + 0.25d0) call fail('real8_fetch', 0)
  call shmem_barrier_all()
  v4 = 100 + me
  call shmem_int4_set(a4, v4, right)
  v8 = 200 + me
  call shmem_int8_set(a8, v8, right)
  y4 = 1.5
  call shmem_real4_set(x4, y4, right)
  y8 = 2.5d0
  call shmem_real8_set(x8, y8, right)
  call shmem_barrier_all()
  if (a4 /= 100 + left .or. a8 /= 200 + left) call fail('int set', 0)
  if (x4 /= 1.5 .or. x8 /= 2.5d0) call fail('real set', 0)
  call shmem_barrier_all()

  ! cswap: a matching and a non-matching condition
  c4 = 100 + me
  v4 = 7
  if (shmem_int4_cswap(a4, c4, v4, right) /= 100 + me) call fail('int4_cswap hit', 0)
  c4 = 12345
  v4 = 8
  if (shmem_int4_cswap(a4, c4, v4, right) /= 7) call fail('int4_cswap miss', 0)
  c8 = 200 + me
  v8 = 9
  if (shmem_int8_cswap(a8, c8, v8, right) /= 200 + me) call fail('int8_cswap hit', 0)
  c8 = 12345
  v8 = 10
  if (shmem_int8_cswap(a8, c8, v8, right) /= 9) call fail('int8_cswap miss', 0)
  call shmem_barrier_all()
  if (a4 /= 7 .or. a8 /= 9) call fail('cswap values', 0)
  call shmem_barrier_all()

  ! every PE adds to PE 0: fadd, finc, add, inc
  a4 = 0; a8 = 0
  call shmem_barrier_all()
  v4 = 3
  r4 = shmem_int4_fadd(a4, v4, 0)
  if (r4 < 0 .or. r4 > 4 * (npes - 1)) call fail('int4_fadd', int(r4))
  r4 = shmem_int4_finc(a4, 0)
  v8 = 3
  r8 = shmem_int8_fadd(a8, v8, 0)
  if (r8 < 0 .or. r8 > 4 * (npes - 1)) call fail('int8_fadd', int(r8))
  r8 = shmem_int8_finc(a8, 0)
  call shmem_barrier_all()
  v4 = 4
  call shmem_int4_add(a4, v4, 0)
  call shmem_int4_inc(a4, 0)
  v8 = 4
  call shmem_int8_add(a8, v8, 0)
  call shmem_int8_inc(a8, 0)
  call shmem_barrier_all()
  if (me == 0) then
    if (a4 /= 9 * npes) call fail('int4 fadd/finc/add/inc total', int(a4))
    if (a8 /= 9 * npes) call fail('int8 fadd/finc/add/inc total', int(a8))
  end if
  call shmem_barrier_all()

  ! ---- a lock around a non-atomic read-modify-write of PE 0's counter ---------------------
  lock = 0
  counter = 0
  call shmem_barrier_all()
  do k = 1, 5
    call shmem_set_lock(lock)
    call shmem_integer_get(seen, counter, 1, 0)
    seen = seen + 1
    call shmem_integer_put(counter, seen, 1, 0)
    call shmem_quiet()
    call shmem_clear_lock(lock)
  end do
  ! test_lock: 0 when it got the lock
  ok = 1
  do while (ok /= 0)
    ok = shmem_test_lock(lock)
  end do
  call shmem_integer_get(seen, counter, 1, 0)
  seen = seen + 1
  call shmem_integer_put(counter, seen, 1, 0)
  call shmem_quiet()
  call shmem_clear_lock(lock)
  call shmem_barrier_all()
  if (me == 0 .and. counter /= 6 * npes) call fail('lock counter', counter)
  call shmem_barrier_all()

  ! ---- waits: PE 0 starts a token around the ring, each PE waits for it from the left -----
  flag4 = 0; flag8 = 0; flagi = 0
  call shmem_barrier_all()
  if (me /= 0) call shmem_int4_wait_until(flag4, SHMEM_CMP_GE, 1)
  v4 = 1
  if (npes > 1 .and. right /= 0) call put_flag4(flag4, v4, right)
  if (me /= 0) call shmem_int8_wait(flag8, 0_8)
  v8 = 5
  if (npes > 1 .and. right /= 0) call put_flag8(flag8, v8, right)
  if (me /= 0) call shmem_wait_until(flagi, SHMEM_CMP_EQ, 7)
  ri = 7
  if (npes > 1 .and. right /= 0) call shmem_integer_put(flagi, ri, 1, right)
  if (me /= 0) call shmem_int4_wait(flag4, 0)
  if (me /= 0) call shmem_int8_wait_until(flag8, SHMEM_CMP_NE, 0_8)
  if (me /= 0) call shmem_wait(flagi, 0)
  call shmem_barrier_all()
  if (me /= 0 .and. (flag4 /= 1 .or. flag8 /= 5 .or. flagi /= 7)) call fail('wait values', 0)

  call shmem_barrier_all()
  call shmem_finalize()
  if (nfail > 0) then
    print '(a,i0,a,i0,a)', 'f_amo: PE ', me, ': ', nfail, ' failures'
    stop 1
  end if
  if (me == 0) print '(a,i0,a)', 'f_amo: passed on ', npes, ' PEs'

contains

  subroutine fail(what, k)
    character(len=*), intent(in) :: what
    integer, intent(in) :: k
    nfail = nfail + 1
    if (nfail <= 10) print '(a,i0,3a,i0)', 'f_amo: PE ', me, ': ', what, ' wrong: ', k
  end subroutine fail

  ! A put of one 4-byte and one 8-byte value (the flag travels by RMA, the waits watch it).
  subroutine put_flag4(dest, value, pe)
    integer*4 :: dest, value
    integer :: pe
    call shmem_put4(dest, value, 1, pe)
  end subroutine put_flag4

  subroutine put_flag8(dest, value, pe)
    integer*8 :: dest, value
    integer :: pe
    call shmem_put8(dest, value, 1, pe)
  end subroutine put_flag8

end program f_amo
