//===- names.cpp - function names as a person reads them -------------------===//
//
// Part of heapprof.  See names.h.  One pass over the name with a depth for
// each kind of bracket; only what lies at depth 0 is copied.
//
//===----------------------------------------------------------------------===//
#include "names.h"
#include "profile_model.h"

#include <cctype>
#include <cstring>

using namespace heapprof;

// The operator spelled at Name[I] (just after "operator"), e.g. "<<=",
// "()", "[]", " new[]"; its length, 0 if none.
static size_t operatorLength(const std::string &Name, size_t I) {
  static const char *const Ops[] = {
      " new[]", " delete[]", " new", " delete", "<=>", "<<=", ">>=", "->*",
      "()",     "[]",        "->",   "<<",      ">>",  "<=",  ">=",  "==",
      "!=",     "&&",        "||",   "++",      "--",  "+=",  "-=",  "*=",
      "/=",     "%=",        "&=",   "|=",      "^=",  "<",   ">",   "+",
      "-",      "*",         "/",    "%",       "&",   "|",   "^",   "~",
      "!",      "=",         ","};
  for (const char *Op : Ops)
    if (Name.compare(I, strlen(Op), Op) == 0)
      return strlen(Op);
  return 0;
}

static bool startsWith(const std::string &S, size_t I, const char *P) {
  return S.compare(I, strlen(P), P) == 0;
}

std::string heapprof::shortFunctionName(const std::string &Name) {
  if (Name.find_first_of("<(") == std::string::npos)
    return Name;
  std::string Out;
  // Where the copied text's last top-level space is: a return type ends
  // there ("std::_Rb_tree_node* std::_Rb_tree::_M_create_node").
  size_t LastSpace = std::string::npos;
  int Angle = 0, Paren = 0;
  for (size_t I = 0; I < Name.size();) {
    char C = Name[I];
    bool Top = !Angle && !Paren;
    if (Top && startsWith(Name, I, "operator") &&
        (I == 0 || !isalnum(static_cast<unsigned char>(Name[I - 1])))) {
      size_t Op = operatorLength(Name, I + 8);
      Out.append(Name, I, 8 + Op);
      I += 8 + Op;
      continue;
    }
    if (Top && startsWith(Name, I, " [clone ")) // gcc's .cold, .isra parts
      break;
    if (Top && startsWith(Name, I, "(anonymous namespace)")) {
      Out.append("(anonymous namespace)");
      I += strlen("(anonymous namespace)");
      continue;
    }
    if (C == '<' || C == '(') {
      (C == '<' ? Angle : Paren)++;
    } else if (C == '>' || C == ')') {
      int &D = C == '>' ? Angle : Paren;
      if (--D < 0)
        return Name; // unbalanced: not a name this can read
    } else if (Top) {
      if (C == ' ' && !Out.empty()) {
        // " const", " &", " volatile" after a parameter list: dropped with
        // it, as is whatever follows the list at the end.
        LastSpace = Out.size();
      }
      Out.push_back(C);
    }
    I++;
  }
  if (Angle || Paren)
    return Name;
  // What follows the name proper: " const", " &&", a trailing space.
  while (!Out.empty()) {
    size_t Sp = Out.find_last_of(' ');
    if (Sp == std::string::npos)
      break;
    std::string Tail = Out.substr(Sp + 1);
    if (Tail.empty() || Tail == "const" || Tail == "volatile" ||
        Tail == "&" || Tail == "&&") {
      Out.erase(Sp);
      LastSpace = Out.find_last_of(' ');
      continue;
    }
    break;
  }
  // A return type before the name: the name is after the last top-level
  // space, unless that space belongs to an operator's spelling ("operator
  // new") or "(anonymous namespace)".
  if (LastSpace != std::string::npos && LastSpace < Out.size()) {
    size_t Op = Out.rfind("operator ");
    size_t Anon = Out.rfind("(anonymous namespace)");
    bool InOp = Op != std::string::npos && LastSpace == Op + 8;
    bool InAnon = Anon != std::string::npos && LastSpace > Anon &&
                  LastSpace < Anon + strlen("(anonymous namespace)");
    if (!InOp && !InAnon)
      Out.erase(0, LastSpace + 1);
  }
  return Out.empty() ? Name : Out;
}

void heapprof::shortenFunctionNames(Profile &P) {
  for (Location &L : P.Locations)
    for (Frame &F : L.Frames) {
      std::string Short = shortFunctionName(F.Function);
      if (Short != F.Function) {
        F.Whole = std::move(F.Function);
        F.Function = std::move(Short);
      }
    }
}
