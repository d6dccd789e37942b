/* The option parser: values, separators, quoting, errors naming the option. */
#include "hp_test.h"

static int hp_strstr_test(const char *h, const char *n) {
  size_t k = hp_strlen(n);
  for (; *h; h++)
    if (!hp_strncmp(h, n, k))
      return 1;
  return 0;
}

int main(void) {
  hp_flags_t f;
  char err[256];
  hp_flags_set_defaults(&f);
  EXPECT_EQ(f.malloc_context_size, 30);
  EXPECT(f.print_raw);   /* raw profile by default (llvm-profdata's) */
  EXPECT(!f.print_text);
  EXPECT(f.allocator_may_return_null);
  EXPECT_EQ(f.explicit_mask, 0);
  EXPECT_EQ(f.hib_table_ways, 4);

  EXPECT(hp_flags_parse(&f, "malloc_context_size=5:print_text=0", "T", err,
                        sizeof(err)));
  EXPECT_EQ(f.malloc_context_size, 5);
  EXPECT(!f.print_text);
  /* Set to its default value, but named: explicit. */
  EXPECT(hp_flag_explicit(&f, print_text));
  EXPECT(hp_flag_explicit(&f, malloc_context_size));
  EXPECT(!hp_flag_explicit(&f, print_raw));
  EXPECT(hp_flags_parse(&f, " verbosity=2  symbolize=false,halt_on_error=yes ",
                        "T", err, sizeof(err)));
  EXPECT_EQ(f.verbosity, 2);
  EXPECT(!f.symbolize);
  EXPECT(f.halt_on_error);
  EXPECT(hp_flags_parse(&f, "log_path='/tmp/a b:c'", "T", err, sizeof(err)));
  EXPECT_STREQ(f.log_path, "/tmp/a b:c");
  EXPECT(hp_flags_parse(&f, "profile_dir=/x/y", "T", err, sizeof(err)));
  EXPECT_STREQ(f.profile_dir, "/x/y");
  EXPECT(hp_flags_parse(&f, "", "T", err, sizeof(err)));
  EXPECT(hp_flags_parse(&f, NULL, "T", err, sizeof(err)));
  /* An unknown name is a warning, not an error; the rest still applies. */
  EXPECT(hp_flags_parse(&f, "no_such_flag=1:verbosity=3", "T", err, sizeof(err)));
  EXPECT_EQ(f.verbosity, 3);

  /* Malformed values name the option and the value. */
  EXPECT(!hp_flags_parse(&f, "print_text=maybe", "HEAPPROF_OPTIONS", err,
                         sizeof(err)));
  EXPECT(hp_strstr_test(err, "'maybe'") && hp_strstr_test(err, "'print_text'") &&
         hp_strstr_test(err, "HEAPPROF_OPTIONS"));
  EXPECT(!hp_flags_parse(&f, "malloc_context_size=12x", "T", err, sizeof(err)));
  EXPECT(hp_strstr_test(err, "malloc_context_size"));
  EXPECT(!hp_flags_parse(&f, "verbosity", "T", err, sizeof(err)));
  EXPECT(hp_strstr_test(err, "expected name=value"));
  EXPECT(!hp_flags_parse(&f, "log_path='unterminated", "T", err, sizeof(err)));
  EXPECT(!hp_flags_parse(&f, "malloc_context_size=0", "T", err, sizeof(err)));
  EXPECT(hp_strstr_test(err, "out of range"));
  hp_flags_set_defaults(&f);
  EXPECT(!hp_flags_parse(&f, "hib_table_ways=17", "T", err, sizeof(err)));
  hp_flags_set_defaults(&f);
  EXPECT(!hp_flags_parse(&f, "malloc_context_size=99999999999999999999", "T",
                         err, sizeof(err)));
  /* A string option given again frees its old value's room. */
  hp_flags_set_defaults(&f);
  EXPECT(hp_flags_parse(&f, "profile_dir=/kept", "T", err, sizeof(err)));
  for (int i = 0; i < 2000; i++)
    EXPECT(hp_flags_parse(&f, "log_path=/a/b/c", "T", err, sizeof(err)));
  EXPECT_STREQ(f.log_path, "/a/b/c");
  EXPECT_STREQ(f.profile_dir, "/kept");
  return hp_test_done("flags_test");
}
