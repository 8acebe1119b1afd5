// The typed configuration, read once from the environment at shmem_init.
#pragma once

#include <cstddef>
#include <cstdio>
#include <map>
#include <string>

#include "config/parsers.hpp"
#include "log/log.hpp"
#include "status.hpp"
#include "transport/atomic_resources.hpp"

namespace shoal {

struct Config {
#define SMA_CONFIG(_field, _key, _type, _parser, _def, _spelling, _doc) _type _field{};
#include "config/config_table.def"
#undef SMA_CONFIG

  // Reads every variable of the table. A bad value fails with a message naming the variable,
  // the value and what is accepted.
  Failure load();
  // The variable a key's value came from ("SHMEM_BCAST_ALGORITHM" or "SMA_BCAST_ALGORITHM"),
  // for messages about the value; "SMA_<key>" when it is unset.
  std::string source_of(const std::string &key) const;
  // Prints every variable: name, default, value in force and meaning (SMA_INFO).
  void print(std::FILE *out) const;

 private:
  std::map<std::string, std::string> sources;  // key -> variable it was read from
};

}  // namespace shoal
