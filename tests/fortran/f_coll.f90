! Fortran collectives on active sets: SHMEM_BARRIER_ALL, SHMEM_BARRIER (all PEs and the even
! PEs), SHMEM_BROADCAST4/8/32/64, SHMEM_COLLECT4/8/32/64, SHMEM_FCOLLECT4/8/32/64,
! SHMEM_ALLTOALL32/64, SHMEM_ALLTOALLS32/64 and every SHMEM_<T>_<OP>_TO_ALL, each result
! checked on every PE against the same computation done locally. pSync arrays are default
! INTEGER (and one INTEGER*8) arrays of the shmem.fh sizes.
program f_coll
  implicit none
  include 'shmem.fh'
  integer, parameter :: N = 8, M = 3, BIG = 64
  integer :: shmem_my_pe, shmem_n_pes
  integer :: me, npes, nfail, k, p, j, nevens
  integer :: psync(SHMEM_REDUCE_SYNC_SIZE), psync2(SHMEM_BARRIER_SYNC_SIZE)
  integer*8 :: psync8(SHMEM_BCAST_SYNC_SIZE)
  integer*8 :: pwrk(2 * N + SHMEM_REDUCE_MIN_WRKDATA_SIZE)
  integer*4 :: s4(BIG), t4(BIG)
  integer*8 :: s8(BIG), t8(BIG)
  integer :: isum(1), isrc(1)
  save

  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  nfail = 0
  psync = SHMEM_SYNC_VALUE
  psync2 = SHMEM_SYNC_VALUE
  psync8 = SHMEM_SYNC_VALUE
  call shmem_barrier_all()

  ! ---- barriers ------------------------------------------------------------------------------
  call shmem_barrier(0, 0, npes, psync)
  nevens = (npes + 1) / 2
  if (mod(me, 2) == 0) then
    call shmem_barrier(0, 1, nevens, psync2)
    ! a reduction over the even PEs only
    isrc = me
    call shmem_int4_sum_to_all(isum, isrc, 1, 0, 1, nevens, pwrk, psync)
    if (isum(1) /= nevens * (nevens - 1)) call fail('int4_sum over the even PEs', isum(1))
  end if
  call shmem_barrier_all()

  ! ---- broadcast from active-set PE 0 -------------------------------------------------------
  call prepare()
  call shmem_broadcast4(t4, s4, N, 0, 0, 0, npes, psync)
  call shmem_broadcast8(t8, s8, N, 0, 0, 0, npes, psync8)
  call check_bcast('broadcast4/8')
  call prepare()
  call shmem_broadcast32(t4, s4, N, 0, 0, 0, npes, psync)
  call shmem_broadcast64(t8, s8, N, 0, 0, 0, npes, psync8)
  call check_bcast('broadcast32/64')

  ! ---- collect: PE p contributes p+1 elements; fcollect: M each -----------------------------
  call prepare()
  call shmem_collect4(t4, s4, me + 1, 0, 0, npes, psync)
  call shmem_collect8(t8, s8, me + 1, 0, 0, npes, psync)
  call check_collect('collect4/8')
  call prepare()
  call shmem_collect32(t4, s4, me + 1, 0, 0, npes, psync)
  call shmem_collect64(t8, s8, me + 1, 0, 0, npes, psync)
  call check_collect('collect32/64')
  call prepare()
  call shmem_fcollect4(t4, s4, M, 0, 0, npes, psync)
  call shmem_fcollect8(t8, s8, M, 0, 0, npes, psync)
  call check_fcollect('fcollect4/8')
  call prepare()
  call shmem_fcollect32(t4, s4, M, 0, 0, npes, psync)
  call shmem_fcollect64(t8, s8, M, 0, 0, npes, psync)
  call check_fcollect('fcollect32/64')

  ! ---- alltoall: block p of the source goes to PE p -----------------------------------------
  call prepare_a2a()
  call shmem_alltoall32(t4, s4, M, 0, 0, npes, psync)
  call shmem_alltoall64(t8, s8, M, 0, 0, npes, psync)
  do p = 0, npes - 1
    do j = 1, M
      if (t4(p * M + j) /= a2a(p, me, j)) call fail('alltoall32', p * M + j)
      if (t8(p * M + j) /= a2a(p, me, j)) call fail('alltoall64', p * M + j)
    end do
  end do
  ! alltoalls: dest stride 2, source stride 1
  call prepare_a2a()
  call shmem_alltoalls32(t4, s4, 2, 1, M, 0, 0, npes, psync)
  call shmem_alltoalls64(t8, s8, 2, 1, M, 0, 0, npes, psync)
  do p = 0, npes - 1
    do j = 1, M
      k = p * M * 2 + 2 * (j - 1) + 1
      if (t4(k) /= a2a(p, me, j)) call fail('alltoalls32', k)
      if (t8(k) /= a2a(p, me, j)) call fail('alltoalls64', k)
      if (t4(k + 1) /= -1 .or. t8(k + 1) /= -1) call fail('alltoalls gap', k + 1)
    end do
  end do

  ! ---- every reduction ---------------------------------------------------------------------
  call reduce_int4()
  call reduce_int8()
  call reduce_real4()
  call reduce_real8()
  call reduce_real16()
  call reduce_complex()
  call reduce_xor_bits()

  call shmem_barrier_all()
  call shmem_finalize()
  if (nfail > 0) then
    print '(a,i0,a,i0,a)', 'f_coll: PE ', me, ': ', nfail, ' failures'
    stop 1
  end if
  if (me == 0) print '(a,i0,a)', 'f_coll: passed on ', npes, ' PEs'

contains

  subroutine fail(what, k)
    character(len=*), intent(in) :: what
    integer, intent(in) :: k
    nfail = nfail + 1
    if (nfail <= 10) print '(a,i0,3a,i0)', 'f_coll: PE ', me, ': ', what, ' wrong at ', k
  end subroutine fail

  integer function val(pe, k)
    integer, intent(in) :: pe, k
    val = pe * 100 + k
  end function val

  integer function a2a(from, to, j)
    integer, intent(in) :: from, to, j
    a2a = from * 100 + to * 10 + j
  end function a2a

  subroutine prepare()
    integer :: i
    do i = 1, BIG
      s4(i) = val(me, i)
      s8(i) = val(me, i)
    end do
    t4 = -1
    t8 = -1
    call shmem_barrier_all()
  end subroutine prepare

  subroutine prepare_a2a()
    integer :: q, i
    do q = 0, npes - 1
      do i = 1, M
        s4(q * M + i) = a2a(me, q, i)
        s8(q * M + i) = a2a(me, q, i)
      end do
    end do
    t4 = -1
    t8 = -1
    call shmem_barrier_all()
  end subroutine prepare_a2a

  ! The root's target stays untouched; every other PE has the root's source.
  subroutine check_bcast(what)
    character(len=*), intent(in) :: what
    integer :: i, w
    do i = 1, N
      w = val(0, i)
      if (me == 0) w = -1
      if (t4(i) /= w .or. t8(i) /= w) call fail(what, i)
    end do
  end subroutine check_bcast

  subroutine check_collect(what)
    character(len=*), intent(in) :: what
    integer :: q, i, at
    at = 0
    do q = 0, npes - 1
      do i = 1, q + 1
        at = at + 1
        if (t4(at) /= val(q, i) .or. t8(at) /= val(q, i)) call fail(what, at)
      end do
    end do
    if (t4(at + 1) /= -1 .or. t8(at + 1) /= -1) call fail(what // ' past the end', at + 1)
  end subroutine check_collect

  subroutine check_fcollect(what)
    character(len=*), intent(in) :: what
    integer :: q, i
    do q = 0, npes - 1
      do i = 1, M
        if (t4(q * M + i) /= val(q, i) .or. t8(q * M + i) /= val(q, i)) &
          call fail(what, q * M + i)
      end do
    end do
  end subroutine check_fcollect

  ! Operand of reduction op (1 and, 2 or, 3 xor, 4 max, 5 min, 6 sum, 7 prod) on PE pe at k.
  integer*8 function gen(op, pe, k)
    integer, intent(in) :: op, pe, k
    select case (op)
    case (1)
      gen = not(ishft(1_8, mod(pe + k, 30)))
    case (2)
      gen = ishft(1_8, mod(pe + k, 30))
    case (3)
      gen = (pe + 1) * 37 + k
    case (4, 5)
      gen = mod(pe * 7 + k * 3, 11) - 5
    case (6)
      gen = pe * 10 + k
    case default
      gen = 1 + mod(pe + k, 2)
    end select
  end function gen

  integer*8 function fold(op, a, b)
    integer, intent(in) :: op
    integer*8, intent(in) :: a, b
    select case (op)
    case (1)
      fold = iand(a, b)
    case (2)
      fold = ior(a, b)
    case (3)
      fold = ieor(a, b)
    case (4)
      fold = max(a, b)
    case (5)
      fold = min(a, b)
    case (6)
      fold = a + b
    case default
      fold = a * b
    end select
  end function fold

  ! The expected result of op at k over all PEs.
  integer*8 function expect(op, k)
    integer, intent(in) :: op, k
    integer :: q
    expect = gen(op, 0, k)
    do q = 1, npes - 1
      expect = fold(op, expect, gen(op, q, k))
    end do
  end function expect

  subroutine reduce_int4()
    integer*4, save :: s(N), t(N)
    integer :: op, i
    do op = 1, 7
      do i = 1, N
        s(i) = int(gen(op, me, i), 4)
      end do
      t = -99
      call shmem_barrier_all()
      select case (op)
      case (1)
        call shmem_int4_and_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (2)
        call shmem_int4_or_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (3)
        call shmem_int4_xor_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (4)
        call shmem_int4_max_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (5)
        call shmem_int4_min_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (6)
        call shmem_int4_sum_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (7)
        call shmem_int4_prod_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      end select
      do i = 1, N
        if (int(t(i), 8) /= expect(op, i)) call fail('int4 reduction', op * 100 + i)
      end do
    end do
  end subroutine reduce_int4

  subroutine reduce_int8()
    integer*8, save :: s(N), t(N)
    integer :: op, i
    do op = 1, 7
      do i = 1, N
        s(i) = gen(op, me, i)
      end do
      t = -99
      call shmem_barrier_all()
      select case (op)
      case (1)
        call shmem_int8_and_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (2)
        call shmem_int8_or_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (3)
        call shmem_int8_xor_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (4)
        call shmem_int8_max_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (5)
        call shmem_int8_min_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (6)
        call shmem_int8_sum_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (7)
        call shmem_int8_prod_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      end select
      do i = 1, N
        if (t(i) /= expect(op, i)) call fail('int8 reduction', op * 100 + i)
      end do
    end do
  end subroutine reduce_int8

  subroutine reduce_real4()
    real*4, save :: s(N), t(N)
    integer :: op, i
    do op = 4, 7
      do i = 1, N
        s(i) = real(gen(op, me, i), 4)
      end do
      t = -99
      call shmem_barrier_all()
      select case (op)
      case (4)
        call shmem_real4_max_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (5)
        call shmem_real4_min_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (6)
        call shmem_real4_sum_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (7)
        call shmem_real4_prod_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      end select
      do i = 1, N
        if (t(i) /= real(expect(op, i), 4)) call fail('real4 reduction', op * 100 + i)
      end do
    end do
  end subroutine reduce_real4

  subroutine reduce_real8()
    real*8, save :: s(N), t(N)
    integer :: op, i
    do op = 4, 7
      do i = 1, N
        s(i) = real(gen(op, me, i), 8)
      end do
      t = -99
      call shmem_barrier_all()
      select case (op)
      case (4)
        call shmem_real8_max_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (5)
        call shmem_real8_min_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (6)
        call shmem_real8_sum_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (7)
        call shmem_real8_prod_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      end select
      do i = 1, N
        if (t(i) /= real(expect(op, i), 8)) call fail('real8 reduction', op * 100 + i)
      end do
    end do
  end subroutine reduce_real8

  subroutine reduce_real16()
    real*16, save :: s(N), t(N)
    integer :: op, i
    do op = 4, 7
      do i = 1, N
        s(i) = real(gen(op, me, i), 16)
      end do
      t = -99
      call shmem_barrier_all()
      select case (op)
      case (4)
        call shmem_real16_max_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (5)
        call shmem_real16_min_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (6)
        call shmem_real16_sum_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      case (7)
        call shmem_real16_prod_to_all(t, s, N, 0, 0, npes, pwrk, psync)
      end select
      do i = 1, N
        if (t(i) /= real(expect(op, i), 16)) call fail('real16 reduction', op * 100 + i)
      end do
    end do
  end subroutine reduce_real16

  ! COMP4 and COMP8 sum and product: (pe*10+k, k) summed; (1, 0 or 1) multiplied.
  subroutine reduce_complex()
    complex*8, save :: s4c(N), t4c(N)
    complex*16, save :: s8c(N), t8c(N)
    complex*16 :: e
    integer :: op, i, q
    do op = 6, 7
      do i = 1, N
        s4c(i) = cmplx(cgen(op, me, i), kind=4)
        s8c(i) = cgen(op, me, i)
      end do
      t4c = (-99.0, 0.0)
      t8c = (-99.0d0, 0.0d0)
      call shmem_barrier_all()
      if (op == 6) then
        call shmem_comp4_sum_to_all(t4c, s4c, N, 0, 0, npes, pwrk, psync)
        call shmem_comp8_sum_to_all(t8c, s8c, N, 0, 0, npes, pwrk, psync)
      else
        call shmem_comp4_prod_to_all(t4c, s4c, N, 0, 0, npes, pwrk, psync)
        call shmem_comp8_prod_to_all(t8c, s8c, N, 0, 0, npes, pwrk, psync)
      end if
      do i = 1, N
        e = cgen(op, 0, i)
        do q = 1, npes - 1
          if (op == 6) then
            e = e + cgen(op, q, i)
          else
            e = e * cgen(op, q, i)
          end if
        end do
        if (t4c(i) /= cmplx(e, kind=4)) call fail('comp4 reduction', op * 100 + i)
        if (t8c(i) /= e) call fail('comp8 reduction', op * 100 + i)
      end do
    end do
  end subroutine reduce_complex

  complex*16 function cgen(op, pe, k)
    integer, intent(in) :: op, pe, k
    if (op == 6) then
      cgen = cmplx(pe * 10 + k, k, kind=8)
    else
      cgen = cmplx(1, mod(pe + k, 2), kind=8)
    end if
  end function cgen

  ! The bitwise XOR of COMP4 (two 32-bit words per item), COMP8 (two 64-bit words) and REAL8
  ! (one 64-bit word), given integer arrays so every bit pattern is exact.
  subroutine reduce_xor_bits()
    integer*4, save :: c4s(2 * N), c4t(2 * N)
    integer*8, save :: c8s(2 * N), c8t(2 * N), r8s(N), r8t(N)
    integer :: i
    do i = 1, 2 * N
      c4s(i) = int(gen(3, me, i), 4)
      c8s(i) = gen(3, me, i) * 1000003_8
    end do
    do i = 1, N
      r8s(i) = gen(3, me, i) * 7_8
    end do
    c4t = -99; c8t = -99; r8t = -99
    call shmem_barrier_all()
    call shmem_comp4_xor_to_all(c4t, c4s, N, 0, 0, npes, pwrk, psync)
    call shmem_comp8_xor_to_all(c8t, c8s, N, 0, 0, npes, pwrk, psync)
    call shmem_real8_xor_to_all(r8t, r8s, N, 0, 0, npes, pwrk, psync)
    do i = 1, 2 * N
      if (int(c4t(i), 8) /= expect(3, i)) call fail('comp4 xor', i)
      if (c8t(i) /= xor_scaled(i, 1000003_8)) call fail('comp8 xor', i)
    end do
    do i = 1, N
      if (r8t(i) /= xor_scaled(i, 7_8)) call fail('real8 xor', i)
    end do
  end subroutine reduce_xor_bits

  integer*8 function xor_scaled(k, f)
    integer, intent(in) :: k
    integer*8, intent(in) :: f
    integer :: q
    xor_scaled = 0
    do q = 0, npes - 1
      xor_scaled = ieor(xor_scaled, gen(3, q, k) * f)
    end do
  end function xor_scaled

end program f_coll
