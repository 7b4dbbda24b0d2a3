// A project header's class whose members a loop of the main file's member
// functions calls through `this` (CLAMR's Mesh of mesh.h:
// is_left_boundary(ic) reads i[ic] and lev_ibegin[level[ic]]).
#pragma once
class Mesh {
public:
  int *i, *lev;
  int *celltype;
  int is_left(int ic) { return (i[ic] < lev[ic]); }
  void calc(int n);
  void calc_macro(int n);
};
