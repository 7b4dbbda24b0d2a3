// A project header's template that the main file instantiates with types
// it declares after including it (Adobe-C++ benchmark_algorithms.h's
// accumulate, over doubles and stepanov_abstraction.cpp's value wrappers).
template <class Iterator, class Number>
Number accumulate(Iterator first, Iterator last, Number result) {
  while (first != last)
    result = result + *first++;
  return result;
}
