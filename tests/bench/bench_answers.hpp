// The answers the run-time benchmarks decode (bench_runtime times them, bench_count counts
// their instructions), each with how many rules it breaks.
#pragma once

#include <cstddef>
#include <string_view>

namespace bench {

// An answer and how many rules it breaks (0: a valid answer). Every form has a valid and an
// invalid answer; Order also has one that breaks the rule of every field, where the cost of
// the messages shows most.
struct answer {
  const char* kind;  // "valid", "invalid", "all_invalid": the benchmark's name says which
  std::string_view text;
  std::size_t rules;
};
inline constexpr answer contact_answers[] = {
    {"valid",
     R"({"action":"accept","content":{"name":"Ada Lovelace","email":"ada@example.com","not_before":"2025-03-14"}})", 0},
    {"invalid", R"({"action":"accept","content":{"name":"","email":"ada.example.com","not_before":"2025-02-30"}})", 3}};

inline constexpr answer shipment_answers[] = {
    {"valid",
     R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp":250,"signature_required":true}})", 0},
    {"invalid",
     R"({"action":"accept","content":{"country_code":"US","insured_value_gbp":9000,"signature_required":"yes"}})", 3}};

inline constexpr answer order_answers[] = {
    {"valid",
     R"({"action":"accept","content":{"newsletter":false,"quantity":3,"account_id":1234567890123,)"
     R"("weight_kg":2.5,"name":"Zoë Müller","email":"zoe@example.com","website":"https://example.com/shop",)"
     R"("ship_on":"2025-03-14","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
     R"("ribbon":"#00FF00","extras":["gift_wrap","fragile"]}})",
     0},
    {"invalid",
     R"({"action":"accept","content":{"newsletter":false,"quantity":0,"account_id":1234567890123,)"
     R"("weight_kg":"heavy","name":"Zoë Müller","email":"zoe at example.com","website":"https://example.com/shop",)"
     R"("ship_on":"2025-02-30","deliver_after":"2025-03-15T09:30:00+01:00","speed":"express",)"
     R"("ribbon":"#123456","extras":["gift_wrap","fragile"]}})",
     5},
    {"all_invalid",
     R"({"action":"accept","content":{"newsletter":"no","quantity":0,"account_id":0,)"
     R"("weight_kg":"heavy","name":"","email":"zoe at example.com","website":"example",)"
     R"("ship_on":"2025-02-30","deliver_after":"tomorrow","speed":"warp",)"
     R"("ribbon":"#123456","extras":"all"}})",
     12}};

}  // namespace bench
