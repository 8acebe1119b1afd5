// One kind of point-to-point traffic of a mixed round (puts, gets, strided, AMOs, signals,
// flags, team contexts). A round runs several components at once:
//
//   prepare()   every PE fills its own memory for the round (no communication)
//   barrier
//   ops()       every PE issues its operations; the operations of all chosen components (and the
//               round's collectives) are interleaved in a per-PE random order
//   quiet       on every context
//   await()     wait for what other PEs send without a barrier (signals, flags), check it at once
//   barrier
//   verify()    check this PE's memory: every byte, written or not
//
// All choices come from the round's shared and per-PE random streams, so every PE can compute
// what every other PE sent it.
#pragma once

#include <functional>
#include <vector>

namespace soak {

struct Op {
  const char* kind;  // reported if the operation hangs
  std::function<void()> run;
};

class Component {
 public:
  virtual ~Component() = default;
  virtual const char* name() const = 0;
  // Whether the component has something to do this round (e.g. a live team for team contexts).
  virtual bool usable() const { return true; }
  virtual void prepare() = 0;
  virtual void ops(std::vector<Op>& out) = 0;
  virtual void await() {}
  virtual void verify() = 0;
};

}  // namespace soak
