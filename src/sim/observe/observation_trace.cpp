#include "sim/observe/observation_trace.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "sim/trace/fields.h"

namespace blis::sim {

namespace {

constexpr const char* kTitle = "# blis observation trace (DEV-4), format 1";
constexpr const char* kColumns = "event,time_us,endpoint,published_us,sequence";

std::string describe(const ObservationEvent& e) {
  std::string s = std::string(e.publish ? "publish" : "observe") + " at " + std::to_string(e.at.us) + " us of endpoint " +
                  std::to_string(e.endpoint);
  if (!e.publish) {
    s += e.value ? " (saw the value published at " + std::to_string(e.value->published.us) + " us, sequence " +
                       std::to_string(e.value->sequence) + ")"
                 : " (saw nothing)";
  }
  return s;
}

template <typename T>
T number(const std::string& field, const std::string& text, const std::string& where) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) {
    throw std::invalid_argument(where + ": " + field + " '" + text + "' is not an integer");
  }
  return v;
}


// The value of a "# key: value" header line.
std::string header_value(const std::string& line, const std::string& key, const std::string& where) {
  const std::string prefix = "# " + key + ": ";
  if (line.rfind(prefix, 0) != 0) throw std::invalid_argument(where + ": expected the header line '" + prefix + "<integer>'");
  return line.substr(prefix.size());
}

}  // namespace

void ObservationTrace::publish(std::int64_t endpoint, SimTime at, std::uint64_t sequence) {
  events_.push_back(ObservationEvent{true, at, endpoint, PublishedKey{at, sequence}});
}

void ObservationTrace::observe(SimTime at, std::int64_t endpoint, std::optional<PublishedKey> seen) {
  events_.push_back(ObservationEvent{false, at, endpoint, seen});
}

std::string ObservationTrace::text(SimTime interval, SimTime delay) const {
  std::ostringstream out;
  out << kTitle << "\n# scrape_interval_us: " << interval.us << "\n# delivery_delay_us: " << delay.us << "\n" << kColumns << "\n";
  for (const auto& e : events_) {
    out << (e.publish ? "publish," : "observe,") << e.at.us << ',' << e.endpoint << ',';
    if (e.value) {
      out << e.value->published.us << ',' << e.value->sequence;
    } else {
      out << ',';
    }
    out << '\n';
  }
  return out.str();
}

ParsedObservationTrace read_observation_trace(const std::string& text, const std::string& name) {
  ParsedObservationTrace t;
  std::istringstream in(text);
  std::string line;
  std::int64_t n = 0;
  auto next = [&](const char* what) {
    if (!std::getline(in, line)) throw std::invalid_argument(name + ": ends before " + what);
    ++n;
    return name + ":" + std::to_string(n);
  };
  std::string where = next("the title line");
  if (line != kTitle) throw std::invalid_argument(where + ": expected '" + kTitle + "'");
  where = next("the scrape interval");
  t.interval = SimTime{number<std::int64_t>("scrape_interval_us", header_value(line, "scrape_interval_us", where), where)};
  if (t.interval.us < 1) throw std::invalid_argument(where + ": scrape_interval_us " + std::to_string(t.interval.us) + " is not positive");
  where = next("the delivery delay");
  t.delay = SimTime{number<std::int64_t>("delivery_delay_us", header_value(line, "delivery_delay_us", where), where)};
  if (t.delay.us < 0) throw std::invalid_argument(where + ": delivery_delay_us " + std::to_string(t.delay.us) + " is negative");
  where = next("the column header");
  if (line != kColumns) throw std::invalid_argument(where + ": expected the columns '" + std::string(kColumns) + "'");
  while (std::getline(in, line)) {
    ++n;
    where = name + ":" + std::to_string(n);
    const std::vector<std::string> f = split_fields(line, ',');
    if (f.size() != 5) throw std::invalid_argument(where + ": " + std::to_string(f.size()) + " fields, expected 5");
    ObservationEvent e;
    if (f[0] == "publish") {
      e.publish = true;
    } else if (f[0] != "observe") {
      throw std::invalid_argument(where + ": event '" + f[0] + "' is neither publish nor observe");
    }
    e.at = SimTime{number<std::int64_t>("time_us", f[1], where)};
    e.endpoint = number<std::int64_t>("endpoint", f[2], where);
    if (f[3].empty() && f[4].empty()) {
      if (e.publish) throw std::invalid_argument(where + ": a publish row without published_us and sequence");
    } else {
      e.value = PublishedKey{SimTime{number<std::int64_t>("published_us", f[3], where)}, number<std::uint64_t>("sequence", f[4], where)};
      if (e.publish && e.value->published != e.at) {
        throw std::invalid_argument(where + ": a publish row's published_us " + f[3] + " is not its time_us " + f[1]);
      }
    }
    t.events.push_back(e);
  }
  return t;
}

std::vector<std::string> check_observations(const ParsedObservationTrace& trace) {
  std::vector<std::string> breaches;
  const std::int64_t interval = trace.interval.us, delay = trace.delay.us;
  std::map<std::int64_t, std::vector<PublishedKey>> published;  // each endpoint's values, in order
  SimTime last{};
  for (const auto& e : trace.events) {
    if (e.at < last) breaches.push_back(describe(e) + ": the trace goes back in time (after " + std::to_string(last.us) + " us)");
    last = std::max(last, e.at);
    std::vector<PublishedKey>& values = published[e.endpoint];
    if (e.publish) {
      if (!values.empty() && !(values.back() < *e.value)) {
        breaches.push_back(describe(e) + ": its (time, sequence) does not follow the endpoint's previous publication's");
      }
      values.push_back(*e.value);
      continue;
    }
    const std::int64_t t = e.at.us;
    if (e.value) {
      const auto it = std::lower_bound(values.begin(), values.end(), *e.value);
      if (it == values.end() || *it != *e.value) {
        breaches.push_back(describe(e) + ": the endpoint published no such value before the decision");
      } else {
        const std::int64_t p = e.value->published.us;
        const std::int64_t scraped = (p + interval - 1) / interval * interval;  // the first scrape that can take it
        if (scraped + delay > t) {
          breaches.push_back(describe(e) + ": observed before its time plus the delays (first scraped at " + std::to_string(scraped) +
                             " us, delivered no earlier than " + std::to_string(scraped + delay) + " us)");
        }
      }
    }
    // The newest value the last scrape delivered strictly before t must have been seen (or a newer one).
    if (t - delay - 1 < 0) continue;
    const std::int64_t s = (t - delay - 1) / interval * interval;
    const auto after = std::upper_bound(values.begin(), values.end(), PublishedKey{SimTime{s}, std::numeric_limits<std::uint64_t>::max()});
    if (after == values.begin()) continue;
    const PublishedKey& due = *std::prev(after);
    if (!e.value || *e.value < due) {
      breaches.push_back(describe(e) + ": stale: the scrape at " + std::to_string(s) + " us delivered the value published at " +
                         std::to_string(due.published.us) + " us (sequence " + std::to_string(due.sequence) + ") by " +
                         std::to_string(s + delay) + " us");
    }
  }
  return breaches;
}

}  // namespace blis::sim
