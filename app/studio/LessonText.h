#pragma once
// A lesson step's text for learners (resources/lessons/<stage>.md, Markdown), read into its parts. No
// Qt: plain text, so that tests and other front ends read it the same way.
//
// The file: a "# title", an optional introduction, then sections, each a "## heading":
//   ## Predict   what the step changes and what to think about, with one table of facts per point
//                (| per point | before | after |), shown beside the bytes per point of the descriptors
//   ## Run       what to watch while both stages run
//   ## Read      one bullet per idea of the change: "- `key`, `key`: sentence." pairs the sentence with
//                the diff hunks whose changed code contains the most of its keys; a bullet without keys
//                is the sentence for hunks no other bullet claims
//   ## Takeaway  one sentence for the summary and the handout
// Any other section is kept, in order, as plain Markdown (the first stage's "How each step goes").
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace iso {

struct LessonNote {
  std::vector<std::string> keys;  // code fragments, matched as substrings
  std::string sentence;
};

struct LessonTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct LessonText {
  std::string title;
  std::string introduction;  // Markdown before the first section
  std::string predict;       // Markdown of Predict without its table
  LessonTable perPoint;      // Predict's table (empty when it has none)
  std::string run;
  std::vector<LessonNote> notes;
  std::string takeaway;
  std::vector<std::pair<std::string, std::string>> otherSections;  // heading, Markdown
};

// Never throws: what does not fit the layout above stays in the introduction or otherSections.
LessonText parseLessonText(const std::string& markdown);

// The note that the changed code `code` implements: the one with the most of its keys in it (the first
// among equals); with no key found, the first note without keys; nullopt when there is none either.
std::optional<std::size_t> noteForCode(const std::string& code, const std::vector<LessonNote>& notes);

// An explanation's summary (resources/stages/<id>.md): its first paragraph after the title, joined
// into one line.
std::string explanationSummary(const std::string& markdown);

}  // namespace iso
