// The parse operation: the page's inputs read as the CLI reads its flags,
// one value at a time, refused in the same words.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "parse.hpp"
#include "requests.hpp"

using json = nlohmann::json;
using bloomlab::lab::run_request;

namespace {

json parse(const json& request) { return json::parse(run_request("parse", request.dump())); }

}  // namespace

TEST(ParseRequest, ReadsWhatPeopleType) {
  EXPECT_EQ(parse({{"as", "bits"}, {"text", "64KiB"}})["value"], 524288u);
  EXPECT_EQ(parse({{"as", "bits"}, {"text", "1.5 GB"}})["value"], 12'000'000'000u);
  EXPECT_EQ(parse({{"as", "bits"}, {"text", "4 Mb"}})["value"], 4'000'000u);
  EXPECT_EQ(parse({{"as", "bits"}, {"text", "8192 bits"}})["value"], 8192u);
  EXPECT_EQ(parse({{"as", "count"}, {"text", "10k"}})["value"], 10'000u);
  EXPECT_EQ(parse({{"as", "count"}, {"text", "4M"}})["value"], 4'000'000u);
  EXPECT_EQ(parse({{"as", "count"}, {"text", "1e6"}})["value"], 1'000'000u);
  EXPECT_EQ(parse({{"as", "count"}, {"text", "1,000"}})["value"], 1000u);
  EXPECT_DOUBLE_EQ(parse({{"as", "rate"}, {"text", "1 in 1000"}})["value"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(parse({{"as", "rate"}, {"text", "1/1000"}})["value"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(parse({{"as", "rate"}, {"text", "0.1%"}})["value"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(parse({{"as", "rate"}, {"text", "1e-3"}})["value"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(parse({{"as", "real"}, {"text", "1.5"}})["value"].get<double>(), 1.5);
  EXPECT_EQ(parse({{"as", "bits"}, {"text", "64KiB"}})["as"], "bits");
  EXPECT_DOUBLE_EQ(parse({{"as", "rate"}, {"text", "0.1%"}})["one_in"].get<double>(), 1000);
}

// The same text gives the same number here as in the functions the CLI's
// flags and every other operation's fields are read with.
TEST(ParseRequest, SameNumbersAsTheGrammar) {
  for (const char* t : {"64KiB", "1.5 GB", "4 Mb", "8192 bits", "2,000", "1e3", "10k"})
    EXPECT_EQ(parse({{"as", "bits"}, {"text", t}})["value"], bloomlab::lab::parse_bits("m", t, 0, UINT64_MAX)) << t;
  for (const char* t : {"10k", "4M", "1e6", "64Ki", "2_000"})
    EXPECT_EQ(parse({{"as", "count"}, {"text", t}})["value"], bloomlab::lab::parse_count("n", t, 0, UINT64_MAX)) << t;
  for (const char* t : {"1 in 1000", "1/1000", "0.1%", "1e-3", "1 in 10k"})
    EXPECT_EQ(parse({{"as", "rate"}, {"text", t}})["value"].get<double>(), bloomlab::lab::parse_rate("p", t)) << t;
}

TEST(ParseRequest, RefusesNamingTheFieldValueAndRange) {
  const json e = parse({{"as", "bits"}, {"text", "1KiB"}, {"field", "m"}, {"lo", 8}, {"hi", 256}})["error"];
  EXPECT_EQ(e["field"], "m");
  EXPECT_EQ(e["message"], "m: '1KiB' is out of range; allowed: a whole number from 8 to 256");
  const json n = parse({{"as", "count"}, {"text", "ten"}, {"field", "n"}})["error"];
  EXPECT_EQ(n["field"], "n");
  EXPECT_NE(n["message"].get<std::string>().find("'ten'"), std::string::npos);
  const json p = parse({{"as", "rate"}, {"text", "2"}, {"field", "p"}})["error"];
  EXPECT_EQ(p["field"], "p");
  EXPECT_NE(p["message"].get<std::string>().find("'2'"), std::string::npos);
  // No field named: the message names "value".
  EXPECT_EQ(parse({{"as", "count"}, {"text", "x"}})["error"]["field"], "value");
  EXPECT_EQ(parse({{"as", "octal"}, {"text", "1"}})["error"]["field"], "as");
  EXPECT_EQ(parse({{"as", "count"}})["error"]["field"], "text");
  EXPECT_EQ(parse({{"text", "1"}})["error"]["field"], "as");
  EXPECT_EQ(parse({{"as", "count"}, {"text", "1"}, {"field", "m: 1"}})["error"]["field"], "field");
  EXPECT_EQ(parse({{"as", "count"}, {"text", "1"}, {"lo", 5}, {"hi", 2}})["error"]["field"], "hi");
  EXPECT_EQ(parse({{"as", "count"}, {"text", "1"}, {"nope", 1}})["error"]["field"], "nope");
}
