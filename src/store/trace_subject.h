// The subject of a traced call, `t:<thread>\/c<n>`, kept as text and counted up in place: the
// trace writer names every call by the next number, and adding one to the last digit (a carry
// now and then) costs a few instructions where formatting the number anew cost tens.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace provio::store {

class TraceSubject {
 public:
  // Room a caller of put() provides: the whole text buffer is copied, a constant size the
  // compiler inlines, and the end moved back to the text's.
  static constexpr std::size_t kRoom = 48;

  // Starts numbering the calls of the thread with prefixed name `thread_term` ("t:<index>", at
  // most 22 characters) at 1.
  void start(std::string_view thread_term) {
    std::memset(text_, 0, sizeof text_);
    std::memcpy(text_, thread_term.data(), thread_term.size());
    size_ = thread_term.size();
    for (char c : {'\\', '/', 'c', '0'}) text_[size_++] = c;
    first_digit_ = size_ - 1;
  }

  // The next call's subject.
  std::string_view next() {
    std::size_t i = size_ - 1;
    while (text_[i] == '9') text_[i--] = '0';
    if (i < first_digit_) {  // 9…9 + 1: a digit more, all the others now '0'
      text_[first_digit_] = '1';
      text_[size_++] = '0';
    } else {
      ++text_[i];
    }
    return std::string_view(text_, size_);
  }

  // The current subject at `p`, which has kRoom bytes; returns its end.
  char* put(char* p) const {
    std::memcpy(p, text_, kRoom);
    return p + size_;
  }

 private:
  // "t:" and at most 20 digits, "\/c", at most 20 digits: 45 bytes, then zeros.
  char text_[kRoom] = {};
  std::size_t size_ = 0;
  std::size_t first_digit_ = 0;
};

}  // namespace provio::store
