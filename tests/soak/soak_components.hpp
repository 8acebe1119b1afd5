// The components of a mixed round (see soak_component.hpp). Each factory allocates the
// component's symmetric memory, so every PE must call them in the same order.
#pragma once

#include <memory>

#include "soak_component.hpp"

namespace soak {

std::unique_ptr<Component> make_put_component();       // blocking and nbi puts, heap or static
std::unique_ptr<Component> make_get_component();       // blocking and nbi gets, heap or static
std::unique_ptr<Component> make_strided_component();   // iput/iget/ibput/ibget
std::unique_ptr<Component> make_amo_component();       // AMOs on shared counters
std::unique_ptr<Component> make_signal_component();    // put_signal ADD/SET + signal waits
std::unique_ptr<Component> make_flag_component();      // put + fence + flag, and a token ring
std::unique_ptr<Component> make_team_ctx_component();  // RMA and AMOs on team contexts

}  // namespace soak
