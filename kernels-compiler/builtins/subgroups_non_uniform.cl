// Sub-group functions for control flow that differs within a sub-group:
// cl_khr_subgroup_non_uniform_vote, cl_khr_subgroup_ballot,
// cl_khr_subgroup_non_uniform_arithmetic. Written with subgroups.cl's
// helpers (included before this file), over two more placeholders of
// Passes/SubGroups.cpp:
//   __kc_sg_exchange_active(x, s)  __kc_sg_exchange(x, s) that also sets
//                                  byte s of an array of its own to 1
//   __kc_sg_active_slots(p)        that byte array, p being what
//                                  __kc_sg_exchange_active returned
// Only the work-items that call a function (the active ones) reach its
// exchange: the others skip its barrier (the divergent sub-group barriers
// of Passes/SubCfgFormation.cpp), so after the exchange the bytes set are
// the sub-group's active work-items.

#define SG_EXCHANGE_ACTIVE(T)                                                  \
  OVERLOAD __private T *__kc_sg_exchange_active(T x, uint slot);
SG_EXCHANGE_ACTIVE(char)
SG_EXCHANGE_ACTIVE(uchar)
SG_EXCHANGE_ACTIVE(short)
SG_EXCHANGE_ACTIVE(ushort)
SG_EXCHANGE_ACTIVE(int)
SG_EXCHANGE_ACTIVE(uint)
SG_EXCHANGE_ACTIVE(long)
SG_EXCHANGE_ACTIVE(ulong)
SG_EXCHANGE_ACTIVE(float)
SG_EXCHANGE_ACTIVE(double)
SG_EXCHANGE_ACTIVE(half)

PURE __private uchar *__kc_sg_active_slots(__private void *exchanged);

// The active work-items of the caller's sub-group, bit i for sub-group
// local id i. The last of them to read the bytes (work-items of a pass run
// in local id order) clears them, so that the next time the sub-group
// reaches the function only the work-items taking part then are set; none
// of them can store again before every one has read (that takes another
// barrier).
static ulong sg_active_lanes(__private uchar *Bytes) {
  uint Base = sg_base();
  uint N = get_sub_group_size();
  ulong Lanes = 0;
  for (uint i = 0; i < SG_W; ++i) {
    uchar Set = Bytes[Base + i];
    Lanes |= (ulong)(i < N && Set != 0) << i;
  }
  if (get_sub_group_local_id() == 63 - (uint)__builtin_clzl(Lanes))
    for (uint i = 0; i < SG_W; ++i)
      Bytes[Base + i] = 0;
  return Lanes;
}

// Exchanges x among the active work-items: S, the sub-group's slots, and
// Active, the lanes whose slot holds a value.
#define SG_ACTIVE_EXCHANGE(T, x)                                               \
  __private T *Exchanged =                                                     \
      __kc_sg_exchange_active(x, sg_base() + get_sub_group_local_id());        \
  ulong Active =                                                               \
      sg_active_lanes(__kc_sg_active_slots((__private void *)Exchanged));      \
  __private T *S = Exchanged + sg_base();

#define SG_IS_ACTIVE(i) (((Active >> (i)) & 1) != 0)

// cl_khr_subgroup_non_uniform_vote

OVERLOAD int sub_group_elect(void) {
  SG_ACTIVE_EXCHANGE(uchar, (uchar)0)
  (void)S;
  return get_sub_group_local_id() == (uint)__builtin_ctzl(Active);
}

OVERLOAD int sub_group_non_uniform_all(int predicate) {
  SG_ACTIVE_EXCHANGE(int, predicate)
  int All = 1;
  for (uint i = 0; i < SG_W; ++i) {
    int P = S[i];
    All &= !SG_IS_ACTIVE(i) || P != 0;
  }
  return All;
}

OVERLOAD int sub_group_non_uniform_any(int predicate) {
  SG_ACTIVE_EXCHANGE(int, predicate)
  int Any = 0;
  for (uint i = 0; i < SG_W; ++i) {
    int P = S[i];
    Any |= SG_IS_ACTIVE(i) && P != 0;
  }
  return Any;
}

#define SG_ALL_EQUAL(T)                                                        \
  OVERLOAD int sub_group_non_uniform_all_equal(T value) {                      \
    SG_ACTIVE_EXCHANGE(T, value)                                               \
    T First = S[__builtin_ctzl(Active)];                                       \
    int Equal = 1;                                                             \
    for (uint i = 0; i < SG_W; ++i) {                                          \
      T V = S[i];                                                              \
      Equal &= !SG_IS_ACTIVE(i) || V == First;                                 \
    }                                                                          \
    return Equal;                                                              \
  }

// cl_khr_subgroup_ballot

// The index must name an active work-item: only its slot is read.
#define SG_NU_BROADCAST(T)                                                     \
  OVERLOAD T sub_group_non_uniform_broadcast(T x, uint index) {                \
    SG_LANE(T, x, index)                                                       \
  }
#define SG_NU_BROADCAST_VECTORS(T)                                             \
  SG_NU_BROADCAST(T)                                                           \
  SG_NU_BROADCAST(T##2)                                                        \
  SG_NU_BROADCAST(T##3)                                                        \
  SG_NU_BROADCAST(T##4)                                                        \
  SG_NU_BROADCAST(T##8)                                                        \
  SG_NU_BROADCAST(T##16)

#define SG_BROADCAST_FIRST(T)                                                  \
  OVERLOAD T sub_group_broadcast_first(T value) {                              \
    SG_ACTIVE_EXCHANGE(T, value)                                               \
    return S[__builtin_ctzl(Active)];                                          \
  }

#define SG_VOTE_AND_BALLOT(T)                                                  \
  SG_ALL_EQUAL(T)                                                              \
  SG_NU_BROADCAST_VECTORS(T)                                                   \
  SG_BROADCAST_FIRST(T)

SG_VOTE_AND_BALLOT(char)
SG_VOTE_AND_BALLOT(uchar)
SG_VOTE_AND_BALLOT(short)
SG_VOTE_AND_BALLOT(ushort)
SG_VOTE_AND_BALLOT(int)
SG_VOTE_AND_BALLOT(uint)
SG_VOTE_AND_BALLOT(long)
SG_VOTE_AND_BALLOT(ulong)
SG_VOTE_AND_BALLOT(float)
SG_VOTE_AND_BALLOT(double)
SG_VOTE_AND_BALLOT(half)

// Ballots: bit i of the 128 (x holds bits 0 to 31, y 32 to 63; a sub-group
// has at most 64 work-items, so z and w are 0) for sub-group local id i.
static uint4 sg_ballot_of(ulong Bits) {
  return (uint4)((uint)Bits, (uint)(Bits >> 32), 0, 0);
}

// The bits of a ballot the ballot functions consider: one per work-item of
// a whole sub-group (get_max_sub_group_size(), also in a partial one, as
// the CTS expects).
static ulong sg_ballot_bits(uint4 value) {
  ulong Bits = (ulong)value.x | (ulong)value.y << 32;
  uint M = get_max_sub_group_size();
  return M >= 64 ? Bits : Bits & ((1ul << M) - 1);
}

// The lanes below sub-group local id L.
static ulong sg_lanes_below(uint L) { return L >= 64 ? ~0ul : (1ul << L) - 1; }

OVERLOAD uint4 sub_group_ballot(int predicate) {
  SG_ACTIVE_EXCHANGE(int, predicate)
  ulong Bits = 0;
  for (uint i = 0; i < SG_W; ++i) {
    int P = S[i];
    Bits |= (ulong)(SG_IS_ACTIVE(i) && P != 0) << i;
  }
  return sg_ballot_of(Bits);
}

OVERLOAD int sub_group_inverse_ballot(uint4 value) {
  return (sg_ballot_bits(value) >> get_sub_group_local_id() & 1) != 0;
}

OVERLOAD int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 64 && (sg_ballot_bits(value) >> index & 1) != 0;
}

OVERLOAD uint sub_group_ballot_bit_count(uint4 value) {
  return (uint)__builtin_popcountl(sg_ballot_bits(value));
}

OVERLOAD uint sub_group_ballot_inclusive_scan(uint4 value) {
  ulong Upto = sg_lanes_below(get_sub_group_local_id() + 1);
  return (uint)__builtin_popcountl(sg_ballot_bits(value) & Upto);
}

OVERLOAD uint sub_group_ballot_exclusive_scan(uint4 value) {
  ulong Below = sg_lanes_below(get_sub_group_local_id());
  return (uint)__builtin_popcountl(sg_ballot_bits(value) & Below);
}

// Undefined for a ballot without a bit set in the sub-group's range: the
// result is then 64 and -1 as uint.
OVERLOAD uint sub_group_ballot_find_lsb(uint4 value) {
  ulong Bits = sg_ballot_bits(value);
  return Bits == 0 ? 64 : (uint)__builtin_ctzl(Bits);
}

OVERLOAD uint sub_group_ballot_find_msb(uint4 value) {
  ulong Bits = sg_ballot_bits(value);
  return Bits == 0 ? ~0u : 63 - (uint)__builtin_clzl(Bits);
}

// The masks hold only bits of the sub-group's work-items.
static uint4 sg_mask(ulong Bits) {
  uint N = get_sub_group_size();
  return sg_ballot_of(N >= 64 ? Bits : Bits & ((1ul << N) - 1));
}

OVERLOAD uint4 get_sub_group_eq_mask(void) {
  return sg_mask(1ul << get_sub_group_local_id());
}
OVERLOAD uint4 get_sub_group_ge_mask(void) {
  return sg_mask(~sg_lanes_below(get_sub_group_local_id()));
}
OVERLOAD uint4 get_sub_group_gt_mask(void) {
  return sg_mask(~sg_lanes_below(get_sub_group_local_id() + 1));
}
OVERLOAD uint4 get_sub_group_le_mask(void) {
  return sg_mask(sg_lanes_below(get_sub_group_local_id() + 1));
}
OVERLOAD uint4 get_sub_group_lt_mask(void) {
  return sg_mask(sg_lanes_below(get_sub_group_local_id()));
}

// cl_khr_subgroup_non_uniform_arithmetic: the inactive lanes count as the
// identity. A reduction is a tree as in subgroups.cl's SG_REDUCE (every
// active work-item runs the same one, so all get the same result), a scan
// a fold in lane order.
#define SG_NU_REDUCE(T, Name, Id, Op)                                          \
  OVERLOAD T sub_group_non_uniform_reduce_##Name(T x) {                        \
    SG_ACTIVE_EXCHANGE(T, x)                                                   \
    T V[64];                                                                   \
    for (uint i = 0; i < SG_W; ++i) {                                          \
      T Slot = S[i];                                                           \
      V[i] = SG_IS_ACTIVE(i) ? Slot : (T)(Id);                                 \
    }                                                                          \
    SG_TREE_LEVEL(Op, V, 32)                                                   \
    SG_TREE_LEVEL(Op, V, 16)                                                   \
    SG_TREE_LEVEL(Op, V, 8)                                                    \
    SG_TREE_LEVEL(Op, V, 4)                                                    \
    SG_TREE_LEVEL(Op, V, 2)                                                    \
    SG_TREE_LEVEL(Op, V, 1)                                                    \
    return V[0];                                                               \
  }

#define SG_NU_SCAN(T, Kind, Name, Id, Op, Keep)                                \
  OVERLOAD T sub_group_non_uniform_scan_##Kind##_##Name(T x) {                 \
    SG_ACTIVE_EXCHANGE(T, x)                                                   \
    uint L = get_sub_group_local_id();                                         \
    T R = Id;                                                                  \
    for (uint i = 0; i < SG_W; ++i) {                                          \
      T V = S[i];                                                              \
      R = Op(R, SG_IS_ACTIVE(i) && (Keep) ? V : (T)(Id));                      \
    }                                                                          \
    return R;                                                                  \
  }

#define SG_NU_OP(T, Name, Id, Op)                                              \
  SG_NU_REDUCE(T, Name, Id, Op)                                                \
  SG_NU_SCAN(T, inclusive, Name, Id, Op, i <= L)                               \
  SG_NU_SCAN(T, exclusive, Name, Id, Op, i < L)

// Every operation of subgroups.cl's table.
SG_FOR_EACH_OP(SG_NU_OP)
