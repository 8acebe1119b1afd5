#include "options.hpp"

#include <charconv>
#include <optional>

#include "diagnostics.hpp"

#ifndef SHOAL_VERSION
#define SHOAL_VERSION "0.0.0"
#endif

namespace shoal::launcher {
namespace {

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (s == n) return true;
  return false;
}

std::optional<int> parse_count(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxPes)
    return std::nullopt;
  return value;
}

bool valid_env_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

ParseResult fail(std::string message) {
  ParseResult r;
  r.action = ParseAction::usage_error;
  r.error = std::move(message);
  return r;
}

}  // namespace

ParseResult parse_options(int argc, char **argv) {
  ParseResult result;
  Options &opt = result.options;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    // The first word that is not an option starts the program; everything after it is the
    // program's own (so `oshrun -np 2 ./a -np 5` passes "-np 5" to ./a).
    if (arg.size() < 2 || arg[0] != '-') break;

    // Options with a value accept both "-np 4" and "-np=4".
    std::string_view name = arg;
    std::optional<std::string_view> inline_value;
    if (const auto eq = arg.find('='); eq != std::string_view::npos && arg != "-x") {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    auto take_value = [&]() -> std::optional<std::string_view> {
      if (inline_value) return inline_value;
      if (i + 1 >= argc) return std::nullopt;
      return std::string_view(argv[++i]);
    };

    if (is_one_of(name, {"-np", "-n", "--np", "--n"})) {
      const auto v = take_value();
      if (!v) return fail("option '" + std::string(name) + "' needs a number of PEs");
      const auto n = parse_count(*v);
      if (!n)
        return fail("invalid number of PEs '" + std::string(*v) + "' (expected 1.." +
                    std::to_string(kMaxPes) + ")");
      opt.np = *n;
      opt.np_given = true;
    } else if (is_one_of(name, {"--host", "-host", "-H"})) {
      const auto v = take_value();
      if (!v) return fail("option '" + std::string(name) + "' needs a list of hosts");
      if (std::string why = parse_host_option(*v, opt.host_entries); !why.empty()) return fail(why);
      opt.host += (opt.host.empty() ? "" : ",") + std::string(*v);
    } else if (is_one_of(name, {"--hostfile", "-hostfile", "--machinefile", "-machinefile"})) {
      const auto v = take_value();
      if (!v || v->empty()) return fail("option '" + std::string(name) + "' needs a file name");
      if (!opt.hostfile.empty()) return fail("only one --hostfile may be given");
      opt.hostfile = *v;
    } else if (is_one_of(name, {"--launcher", "-launcher"})) {
      const auto v = take_value();
      if (!v || v->empty()) return fail("option '--launcher' needs the path of a launcher");
      opt.launcher = *v;
    } else if (arg == "-x" || arg == "--x") {
      if (i + 1 >= argc) return fail("option '-x' needs VAR or VAR=value");
      const std::string_view v = argv[++i];
      if (!valid_env_name(v.substr(0, v.find('='))))
        return fail("invalid environment variable name in '-x " + std::string(v) + "'");
      opt.exports.emplace_back(v);
    } else if (is_one_of(name, {"--bind-to", "-bind-to"})) {
      const auto v = take_value();
      if (v && *v == "core")
        opt.bind_to = Options::Binding::core;
      else if (v && *v == "none")
        opt.bind_to = Options::Binding::none;
      else if (v && *v == "auto")
        opt.bind_to = Options::Binding::automatic;
      else
        return fail("option '--bind-to' needs core, none or auto");
    } else if (!inline_value && is_one_of(arg, {"--tag-output", "-tag-output"})) {
      opt.tag_output = true;
    } else if (!inline_value && is_one_of(arg, {"--help", "-h"})) {
      result.action = ParseAction::help;
      return result;
    } else if (!inline_value && is_one_of(arg, {"--version", "-V"})) {
      result.action = ParseAction::version;
      return result;
    } else if (!inline_value && is_one_of(arg, {"--oversubscribe", "-oversubscribe"})) {
      opt.oversubscribe = true;
    } else if (!inline_value && is_one_of(arg, {"--no-srun", "-no-srun"})) {
      opt.no_srun = true;
    } else if (!inline_value && is_one_of(arg, {"--quiet", "-quiet", "-q"})) {
      opt.quiet = true;
    } else if (!inline_value && is_one_of(arg, {"--allow-run-as-root", "-allow-run-as-root"})) {
      // An Open MPI habit: oshrun never refuses root (and passes this on when root).
    } else {
      return fail("unknown option '" + std::string(arg) + "'");
    }
  }
  if (!opt.host.empty() && !opt.hostfile.empty())
    return fail("give either --host or --hostfile, not both");
  if (i >= argc) return fail("no program to run");
  for (; i < argc; ++i) opt.program.emplace_back(argv[i]);
  return result;
}

std::string usage_text() {
  const std::string &p = program_name();
  return "Usage: " + p +
         " [options] [--] program [arguments...]\n"
         "Starts the PEs of an OpenSHMEM job on this node, each a PMIx client of " +
         p +
         ".\n"
         "\n"
         "Options:\n"
         "  -np, -n, --np N    number of PEs to start (default 1; with hosts, one per slot)\n"
         "  -x VAR             pass the current value of VAR to the PEs\n"
         "  -x VAR=value       set VAR to value in the PEs' environment\n"
         "  --tag-output       prefix every line of PE output with \"[PE n] \"\n"
         "  --bind-to core|none|auto\n"
         "                     core: bind PE k to the k-th usable CPU (round robin, a thread\n"
         "                     of every core before a second of any), the CPUs of other\n"
         "                     running oshrun jobs last; none: do not bind; auto\n"
         "                     (default): core when the PEs fit the CPUs no other job uses\n"
         "  -H, --host H1[:N],H2[:N],...\n"
         "                     the hosts of the job, N slots (PEs) each (default 1)\n"
         "  --hostfile FILE    the hosts of the job, one \"name [slots=N]\" per line (default:\n"
         "                     as many slots as CPUs); also --machinefile\n"
         "  --oversubscribe    allow more PEs than the hosts have slots\n"
         "  --launcher PATH    the launcher for hosts other than this one (default: prterun,\n"
         "                     else Open MPI's mpirun, found in PATH); srun: hand the job to\n"
         "                     srun --mpi=pmix, in or outside an allocation\n"
         "  --no-srun          inside a Slurm allocation, start the PEs on this node instead\n"
         "                     of handing the job to srun\n"
         "  -q, --quiet        do not print the command a job is handed over with\n"
         "  --help             show this help and exit\n"
         "  --version          show the version and exit\n"
         "  --allow-run-as-root\n"
         "                     accepted for Open MPI compatibility\n"
         "\n"
         "With hosts that are all this machine (localhost, its name or addresses) " +
         p +
         "\n"
         "starts the PEs itself, -np at most the slots (all of them without -np). With any\n"
         "other host it hands the job to prterun or mpirun with the same PEs, hosts, -x\n"
         "variables and SMA_*, SHMEM_* and UCX_* variables, and prints that command.\n"
         "Inside a Slurm allocation (SLURM_JOB_ID set, as under salloc or sbatch, but not\n"
         "within a step) and without hosts it hands the job to srun --mpi=pmix (-n N when\n"
         "-np is given, else the allocation's tasks), unless --no-srun is given.\n"
         "\n"
         "Exit status: 0 if every PE exits 0; otherwise the status of the first PE that failed\n"
         "(128+N if it was killed by signal N), or the status given to shmem_global_exit.\n";
}

std::string version_text() { return "oshrun (Shoal) " SHOAL_VERSION "\n"; }

}  // namespace shoal::launcher
