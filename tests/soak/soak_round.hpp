// One round of the soak: a mix of point-to-point components with collectives in between, a run
// of collectives, a team round or a heap round, as the round's shared randomness says.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "soak_component.hpp"
#include "soak_rounds.hpp"

namespace soak {

class Rounds {
 public:
  Rounds();  // collective: the components allocate their symmetric memory
  ~Rounds();
  // Runs round `round`; returns its kind ("mixed", "coll", "team", "heap").
  const char* run(long round);
  // How many mixed rounds used each component.
  const std::map<std::string, long>& uses() const { return uses_; }

 private:
  void mixed_round();
  void coll_round();

  std::vector<std::unique_ptr<Component>> components_;
  CollSteps coll_;
  std::map<std::string, long> uses_;
};

}  // namespace soak
