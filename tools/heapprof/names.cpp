//===- names.cpp - function names as a person reads them -------------------===//
//
// Part of heapprof.  See names.h.  One pass over the name with a depth for
// each kind of bracket; only what lies at depth 0 is copied.
//
//===----------------------------------------------------------------------===//
#include "names.h"
#include "profile_model.h"

#include <cctype>
#include <cstdlib>
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

// The length of what follows "operator" at Name[I] when it is not one of
// operatorLength's: a conversion's type (" unsigned long", " char const*",
// " std::vector<int>") or a literal's suffix ("\"\" _kb", "\"\"_kb"), up to
// the parameter list; 0 if neither.
static size_t namedOperatorLength(const std::string &Name, size_t I) {
  if (!startsWith(Name, I, " ") && !startsWith(Name, I, "\"\""))
    return 0;
  int Angle = 0;
  size_t J = I;
  for (; J < Name.size(); J++) {
    char C = Name[J];
    if (C == '<')
      Angle++;
    else if (C == '>')
      Angle--;
    else if (C == '(' && Angle == 0)
      break;
  }
  return J - I;
}

// The position of the '>' that closes the '<' at Name[Open], or npos.
static size_t closingAngle(const std::string &Name, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Name.size(); I++) {
    if (Name[I] == '<')
      Depth++;
    else if (Name[I] == '>' && --Depth == 0)
      return I;
  }
  return std::string::npos;
}

// Rust's qualified paths: "<X as Trait>::f" and "<X>::f" name X's f.
static std::string selfTypePath(std::string Name) {
  while (!Name.empty() && Name[0] == '<') {
    size_t Close = closingAngle(Name, 0);
    if (Close == std::string::npos)
      break;
    std::string Inner = Name.substr(1, Close - 1);
    // " as " at the top level of Inner.
    int Depth = 0;
    for (size_t I = 0; I < Inner.size(); I++) {
      char C = Inner[I];
      Depth += C == '<' || C == '(';
      Depth -= C == '>' || C == ')';
      if (!Depth && startsWith(Inner, I, " as ")) {
        Inner.erase(I);
        break;
      }
    }
    Name = Inner + Name.substr(Close + 1);
  }
  return Name;
}

std::string heapprof::rustLegacyName(const std::string &Whole) {
  // A symbol LLVM made local to one module keeps a " (.llvm.N)" after the
  // name: kept, after the name made readable.
  std::string Name = Whole, Suffix;
  size_t Llvm = Name.rfind(" (.llvm.");
  if (Llvm != std::string::npos && Name.back() == ')') {
    Suffix = Name.substr(Llvm);
    Name.erase(Llvm);
  }
  // "::h" and 16 hex digits end every legacy Rust symbol.
  const size_t HashLen = 3 + 16;
  if (Name.size() <= HashLen ||
      Name.compare(Name.size() - HashLen, 3, "::h") != 0)
    return Whole;
  for (size_t I = Name.size() - 16; I < Name.size(); I++)
    if (!isxdigit(static_cast<unsigned char>(Name[I])))
      return Whole;
  std::string In = Name.substr(0, Name.size() - HashLen), Out;
  static const struct {
    const char *Code, *Char;
  } Escapes[] = {{"$SP$", "@"}, {"$BP$", "*"}, {"$RF$", "&"}, {"$LT$", "<"},
                 {"$GT$", ">"}, {"$LP$", "("}, {"$RP$", ")"}, {"$C$", ","}};
  for (size_t I = 0; I < In.size();) {
    // A path segment that starts with an escape gets a '_' before it.
    bool SegmentStart = I == 0 || (I >= 2 && In.compare(I - 2, 2, "::") == 0);
    if (SegmentStart && startsWith(In, I, "_$")) {
      I++;
      continue;
    }
    if (startsWith(In, I, "..")) {
      Out += "::";
      I += 2;
      continue;
    }
    bool Done = false;
    if (In[I] == '$') {
      for (const auto &E : Escapes)
        if (startsWith(In, I, E.Code)) {
          Out += E.Char;
          I += strlen(E.Code);
          Done = true;
          break;
        }
      // $uXX$: the character with that hex code.
      size_t End = In.find('$', I + 1);
      if (!Done && In.compare(I, 2, "$u") == 0 && End != std::string::npos &&
          End > I + 2 && End - I <= 8) {
        unsigned long Code = strtoul(In.substr(I + 2, End - I - 2).c_str(),
                                     nullptr, 16);
        if (Code && Code < 0x80) {
          Out += static_cast<char>(Code);
          I = End + 1;
          Done = true;
        }
      }
    }
    if (!Done)
      Out += In[I++];
  }
  return Out + Suffix;
}

std::string heapprof::shortFunctionName(const std::string &Whole) {
  if (Whole.find_first_of("<(") == std::string::npos)
    return Whole;
  const std::string Name = selfTypePath(Whole);
  std::string Out;
  // Where the copied text's last top-level space is: a return type ends
  // there ("std::_Rb_tree_node* std::_Rb_tree::_M_create_node").
  size_t LastSpace = std::string::npos;
  // The last operator's spelling in Out, [OpBeg, OpEnd): its spaces
  // ("operator unsigned long") are neither a return type's end nor a
  // qualifier to drop.
  size_t OpBeg = std::string::npos, OpEnd = 0;
  int Angle = 0, Paren = 0;
  for (size_t I = 0; I < Name.size();) {
    char C = Name[I];
    bool Top = !Angle && !Paren;
    if (Top && startsWith(Name, I, "operator") &&
        (I == 0 || !isalnum(static_cast<unsigned char>(Name[I - 1])))) {
      size_t Op = operatorLength(Name, I + 8);
      if (!Op)
        Op = namedOperatorLength(Name, I + 8);
      OpBeg = Out.size();
      Out.append(Name, I, 8 + Op);
      OpEnd = Out.size();
      I += 8 + Op;
      continue;
    }
    if (Top && startsWith(Name, I, " [clone ")) // gcc's .cold, .isra parts
      break;
    // An ABI tag ("name[abi:cxx11]": every function that returns a
    // std::string or std::list has libstdc++'s) goes, as template arguments
    // do: the whole name keeps it.
    if (Top && startsWith(Name, I, "[abi:")) {
      size_t End = Name.find(']', I);
      if (End != std::string::npos) {
        I = End + 1;
        continue;
      }
    }
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
        return Whole; // unbalanced: not a name this can read
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
    return Whole;
  auto InOperator = [&](size_t Pos) {
    return OpBeg != std::string::npos && Pos >= OpBeg && Pos < OpEnd;
  };
  // What follows the name proper: " const", " &&", a trailing space.
  while (!Out.empty()) {
    size_t Sp = Out.find_last_of(' ');
    if (Sp == std::string::npos || InOperator(Sp))
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
  // space outside an operator's spelling ("operator new", "operator
  // unsigned long") and "(anonymous namespace)".
  if (LastSpace != std::string::npos && InOperator(LastSpace))
    LastSpace = OpBeg ? Out.find_last_of(' ', OpBeg - 1) : std::string::npos;
  if (LastSpace != std::string::npos && LastSpace < Out.size()) {
    size_t Anon = Out.rfind("(anonymous namespace)");
    bool InOp = InOperator(LastSpace);
    bool InAnon = Anon != std::string::npos && LastSpace > Anon &&
                  LastSpace < Anon + strlen("(anonymous namespace)");
    if (!InOp && !InAnon)
      Out.erase(0, LastSpace + 1);
  }
  // Rust's generic arguments of a path end ("f::<T>") leave "f::".
  while (Out.size() > 2 && Out.compare(Out.size() - 2, 2, "::") == 0)
    Out.erase(Out.size() - 2);
  return Out.empty() ? Whole : Out;
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
