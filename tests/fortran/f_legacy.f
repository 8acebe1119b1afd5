C     An OpenSHMEM 1.0-style Fortran 77 program: START_PES, MY_PE,
C     NUM_PES, data in COMMON blocks, typed puts, an active-set
C     reduction with pSync and pWrk, a lock around a counter. Exits
C     with status 1 on any PE that sees a wrong value.
      PROGRAM LEGACY
      INCLUDE 'mpp/shmem.fh'
      INTEGER MY_PE, NUM_PES
      INTEGER ME, NPES, RIGHT, LEFT, I, NFAIL, COUNT(1)
      INTEGER N
      PARAMETER (N = 10)
      INTEGER SRC(N), DST(N), PSYNC(SHMEM_REDUCE_SYNC_SIZE)
      REAL*8 DSRC(N), DDST(N), PWRK(SHMEM_REDUCE_MIN_WRKDATA_SIZE)
      INTEGER*8 LOCK
      INTEGER COUNTER(1)
      COMMON /BLK1/ SRC, DST, PSYNC
      COMMON /BLK2/ DSRC, DDST, PWRK
      COMMON /BLK3/ LOCK, COUNTER

      CALL START_PES(0)
      ME = MY_PE()
      NPES = NUM_PES()
      RIGHT = MOD(ME + 1, NPES)
      LEFT = MOD(ME - 1 + NPES, NPES)
      NFAIL = 0
      DO 10 I = 1, SHMEM_REDUCE_SYNC_SIZE
        PSYNC(I) = SHMEM_SYNC_VALUE
   10 CONTINUE
      DO 20 I = 1, N
        SRC(I) = ME * 1000 + I
        DST(I) = -1
        DSRC(I) = DBLE(ME + I)
   20 CONTINUE
      LOCK = 0
      COUNTER(1) = 0
      CALL SHMEM_BARRIER_ALL()

      CALL SHMEM_INTEGER_PUT(DST, SRC, N, RIGHT)
      CALL SHMEM_BARRIER_ALL()
      DO 30 I = 1, N
        IF (DST(I) .NE. LEFT * 1000 + I) NFAIL = NFAIL + 1
   30 CONTINUE

      CALL SHMEM_REAL8_SUM_TO_ALL(DDST, DSRC, N, 0, 0, NPES, PWRK,
     &                            PSYNC)
      DO 40 I = 1, N
        IF (DDST(I) .NE. DBLE(NPES * I + NPES * (NPES - 1) / 2))
     &    NFAIL = NFAIL + 1
   40 CONTINUE

      CALL SHMEM_SET_LOCK(LOCK)
      CALL SHMEM_INTEGER_GET(COUNT, COUNTER, 1, 0)
      COUNT(1) = COUNT(1) + 1
      CALL SHMEM_INTEGER_PUT(COUNTER, COUNT, 1, 0)
      CALL SHMEM_QUIET()
      CALL SHMEM_CLEAR_LOCK(LOCK)
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0 .AND. COUNTER(1) .NE. NPES) NFAIL = NFAIL + 1

      IF (NFAIL .NE. 0) THEN
        WRITE (*, '(A,I3,A,I5,A)') 'legacy: PE', ME, ':', NFAIL,
     &    ' wrong values'
        CALL EXIT(1)
      END IF
      IF (ME .EQ. 0) WRITE (*, '(A,I3,A)') 'legacy: passed on', NPES,
     &  ' PEs'
      END
