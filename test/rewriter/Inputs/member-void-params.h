// A project header whose members spell an empty parameter list the C way,
// `(void)`, as CLAMR's PP::Comm (Comm.hh) does.
#pragma once
namespace pp {
class Comm {
public:
  int getNumProcs(void) const { return npes; }
  bool isIOProc( void ) const {
    if (mype == iope) return true;
    return false;
  }
  void reset(void) { npes = 1; }

private:
  int npes = 4, mype = 0, iope = 0;
};
} // namespace pp
