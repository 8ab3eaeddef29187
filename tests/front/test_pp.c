/* The front end's preprocessor (src/front/pp.h): C11's macro examples, # and ##,
 * recursion, #if arithmetic, #include and its failures, #line, _Pragma, the places of
 * tokens and errors, the predefined macros, and inputs that must neither crash nor hang.
 * Outputs are compared as tokens: "a+b" and "a + b" are the same program. */
#include "harness.h"

#include "front/lex.h"
#include "front/pp.h"
#include "front/predef.h"
#include "emu/compile/cg_header.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The unit of the last run, freed by the next one. */
static lat__unit *unit;

static void unit_free(void)
{
    if (unit) {
        lat__arena_free(&unit->arena);
        free(unit);
        unit = NULL;
    }
}

static lat__unit *unit_new(const char *path, const char *display, const char *src)
{
    unit_free();
    unit = calloc(1, sizeof *unit);
    ASSERT_NOT_NULL(unit);
    lat__arena_init(&unit->arena, &unit->oom);
    lat__atoms_init(&unit->atoms, &unit->arena);
    size_t n = strlen(src);
    lat__unit_add_file(unit, path, display, lat__arena_strndup(&unit->arena, src, n), n);
    return unit;
}

/* Preprocesses src as "test.cu" with in (may be NULL); returns the unit. */
static lat__unit *run_in(const char *src, const lat__pp_in *in)
{
    lat__unit *u = unit_new(NULL, "test.cu", src);
    if (setjmp(u->oom))
        FAIL("out of memory");
    lat__pp_run(u, in);
    return u;
}

/* The tokens, one space apart; a pragma as `#pragma <body>`. */
static const char *spelled(const lat__toks *toks)
{
    size_t total = 1;
    for (size_t i = 0; i < toks->n; i++)
        total += toks->items[i].len + 10;
    char *s = t_calloc(total, 1), *at = s;
    for (size_t i = 0; i < toks->n; i++) {
        const lat__tok *t = &toks->items[i];
        if (i)
            *at++ = ' ';
        if (t->kind == LAT_TK_PRAGMA)
            at += sprintf(at, "#pragma ");
        memcpy(at, t->text, t->len);
        at += t->len;
    }
    *at = '\0';
    return s;
}

/* The output with gcc -E -P's line breaks and spaces, for spacing-sensitive checks. */
static const char *spaced(const lat__toks *toks)
{
    size_t total = 1;
    for (size_t i = 0; i < toks->n; i++)
        total += toks->items[i].len + 10;
    char *s = t_calloc(total, 1), *at = s;
    for (size_t i = 0; i < toks->n; i++) {
        const lat__tok *t = &toks->items[i];
        if (i && (t->flags & LAT_TF_BOL))
            *at++ = '\n';
        else if (i && (t->flags & LAT_TF_SPACE))
            *at++ = ' ';
        memcpy(at, t->text, t->len);
        at += t->len;
    }
    *at = '\0';
    return s;
}

static const char *pp(const char *src)
{
    return spelled(&run_in(src, NULL)->toks);
}

/* Every diagnostic of the last run, "" when there is none. */
static const char *msgs(void)
{
    const char *m = lat__unit_messages(unit, true);
    return m ? m : "";
}

/* text as tokens one space apart, as spelled() prints them. */
static const char *tokens_of(const char *text)
{
    lat__unit *u = calloc(1, sizeof *u);
    ASSERT_NOT_NULL(u);
    lat__arena_init(&u->arena, NULL);
    lat__atoms_init(&u->atoms, &u->arena);
    lat__toks toks = {0};
    lat__lex_text(u, text, strlen(text), (lat__loc){0, 1, 1}, &toks);
    const char *s = spelled(&toks);
    lat__arena_free(&u->arena);
    free(u);
    return s;
}

/* src preprocesses, without a diagnostic, to the tokens of want. */
#define ASSERT_PP(src, want)                                                           \
    do {                                                                               \
        const char *t_got_pp_ = pp(src);                                               \
        ASSERT_STR_EQ(t_got_pp_, tokens_of(want));                                     \
        ASSERT_STR_EQ(msgs(), "");                                                     \
    } while (0)

/* ---- C11's examples (6.10.3.5) ------------------------------------------------------- */

TEST(c11_example_3_redefinition_rescanning_and_empty_arguments)
{
    ASSERT_PP("#define x 3\n"
              "#define f(a) f(x * (a))\n"
              "#undef x\n"
              "#define x 2\n"
              "#define g f\n"
              "#define z z[0]\n"
              "#define h g(~\n"
              "#define m(a) a(w)\n"
              "#define w 0,1\n"
              "#define t(a) a\n"
              "#define p() int\n"
              "#define q(x) x\n"
              "#define r(x,y) x ## y\n"
              "#define str(x) # x\n"
              "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
              "g(x+(3,4)-w) | h 5) & m\n"
              "(f)^m(m);\n"
              "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n"
              "char c[2][6] = { str(hello), str() };\n",
              "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);\n"
              "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);\n"
              "int i[] = { 1, 23, 4, 5, };\n"
              "char c[2][6] = { \"hello\", \"\" };\n");
}

TEST(c11_example_4_stringizing_and_pasting)
{
    ASSERT_PP("#define str(s) # s\n"
              "#define xstr(s) str(s)\n"
              "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", \\\n"
              " x ## s, x ## t)\n"
              "#define INCFILE(n) vers ## n\n"
              "#define glue(a, b) a ## b\n"
              "#define xglue(a, b) glue(a, b)\n"
              "#define HIGHLOW \"hello\"\n"
              "#define LOW LOW \", world\"\n"
              "debug(1, 2);\n"
              "fputs(str(strncmp(\"abc\\0d\", \"abc\", '\\4') // this goes away\n"
              " == 0) str(: @\\n), s);\n"
              "xstr(INCFILE(2).h)\n"
              "glue(HIGH, LOW);\n"
              "xglue(HIGH, LOW)\n",
              "printf(\"x\" \"1\" \"= %d, x\" \"2\" \"= %s\", x1, x2);\n"
              "fputs(\"strncmp(\\\"abc\\\\0d\\\", \\\"abc\\\", '\\\\4') == 0\" \": @\\n\", s);\n"
              "\"vers2.h\"\n"
              "\"hello\";\n"
              "\"hello\" \", world\"\n");
    /* The stringized text itself, character for character. */
    const char *out = pp("#define str(s) # s\n"
                         "str(strncmp(\"abc\\0d\", \"abc\", '\\4') // this goes away\n"
                         " == 0)\n");
    ASSERT_STR_EQ(out, "\"strncmp(\\\"abc\\\\0d\\\", \\\"abc\\\", '\\\\4') == 0\"");
}

TEST(c11_example_4_hash_hash_made_by_pasting_is_no_operator)
{
    ASSERT_PP("#define hash_hash # ## #\n"
              "#define mkstr(a) # a\n"
              "#define in_between(a) mkstr(a)\n"
              "#define join(c, d) in_between(c hash_hash d)\n"
              "char p[] = join(x, y);\n",
              "char p[] = \"x ## y\";\n");
}

TEST(c11_example_5_placemarkers)
{
    ASSERT_PP("#define t(x,y,z) x ## y ## z\n"
              "int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n"
              " t(10,,), t(,11,), t(,,12), t(,,) };\n",
              "int j[] = { 123, 45, 67, 89,\n"
              " 10, 11, 12, };\n");
}

TEST(c11_example_6_redefinitions_alike_are_silent_others_warn)
{
    pp("#define OBJ_LIKE (1-1)\n"
       "#define OBJ_LIKE /* white space */ (1-1) /* other */\n"
       "#define FUNC_LIKE(a) ( a )\n"
       "#define FUNC_LIKE( a )( /* note the white space */ \\\n"
       " a /* other stuff on this line\n"
       " */ )\n");
    ASSERT_STR_EQ(msgs(), "");
    pp("#define OBJ_LIKE (1-1)\n"
       "#define OBJ_LIKE (0)\n"
       "#define OBJ_LIKE (1 - 1)\n"
       "#define FUNC_LIKE(a) ( a )\n"
       "#define FUNC_LIKE(b) ( a )\n"
       "#define FUNC_LIKE(b) ( b )\n"
       "OBJ_LIKE\n");
    ASSERT_CONTAINS(msgs(), "test.cu:2:9: warning: \"OBJ_LIKE\" redefined");
    ASSERT_CONTAINS(msgs(), "test.cu:1:9: note: this is the location of the previous definition");
    ASSERT_CONTAINS(msgs(), "test.cu:3:9: warning: \"OBJ_LIKE\" redefined");
    ASSERT_CONTAINS(msgs(), "test.cu:5:9: warning: \"FUNC_LIKE\" redefined");
    ASSERT_CONTAINS(msgs(), "test.cu:6:9: warning: \"FUNC_LIKE\" redefined");
    /* A warning, as gcc has it: the last definition holds and nothing failed. */
    ASSERT_EQ(unit->status, LAT_OK);
    ASSERT_STR_EQ(spelled(&unit->toks), "( 1 - 1 )");
}

TEST(c11_example_7_variable_arguments)
{
    ASSERT_PP("#define debug(...) fprintf(stderr, __VA_ARGS__)\n"
              "#define showlist(...) puts(#__VA_ARGS__)\n"
              "#define report(test, ...) ((test)?puts(#test):\\\n"
              " printf(__VA_ARGS__))\n"
              "debug(\"Flag\");\n"
              "debug(\"X = %d\\n\", x);\n"
              "showlist(The first, second, and third items.);\n"
              "report(x>y, \"x is %d but y is %d\", x, y);\n",
              "fprintf(stderr, \"Flag\" );\n"
              "fprintf(stderr, \"X = %d\\n\", x );\n"
              "puts( \"The first, second, and third items.\" );\n"
              "((x>y)?puts(\"x>y\"): printf(\"x is %d but y is %d\", x, y));\n");
}

TEST(c11_nested_replacement_example_gives_gccs_reading)
{
    /* 6.10.3.4p4: either is allowed; gcc and clang give the second. */
    ASSERT_PP("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n", "2*9*g");
}

/* ---- macros ---------------------------------------------------------------------------- */

TEST(a_function_like_name_without_parenthesis_is_left_alone)
{
    ASSERT_PP("#define f(x) [x]\nf; f + 1; (f)(2); f\n(3)\n", "f; f + 1; (f)(2); [3]");
    ASSERT_PP("#define f(x) [x]\n#define g f\ng(1) g", "[1] f");
}

TEST(an_invocation_may_span_lines_and_conditionals)
{
    ASSERT_PP("#define f(a, b) a + b\nf(1,\n  2\n)\n", "1 + 2");
    ASSERT_PP("#define f(a) <a>\nf(\n#ifdef NOPE\n  no\n#else\n  yes\n#endif\n)\n", "<yes>");
    ASSERT_PP("#define f(a) <a>\nf\n#define Z 1\n(Z)\n", "<1>");
}

TEST(arguments_are_expanded_before_substitution_except_next_to_hash)
{
    ASSERT_PP("#define ONE 1\n#define id(x) x\n#define s(x) #x\n#define c(x) x ## _\n"
              "id(ONE) s(ONE) c(ONE)",
              "1 \"ONE\" ONE_");
}

TEST(an_argument_expands_on_its_own_not_with_what_follows)
{
    /* C11 6.10.3.1: the argument is expanded as if it were the rest of the file. */
    ASSERT_PP("#define f(x) (x)\n#define g(x) x(1)\n#define id(x) x\ng(f) id(f)(2)", "(1) (2)");
    ASSERT_PP("#define f(x) (x)\n#define call(m) m\ncall(f)(3)", "(3)");
}

TEST(a_macro_is_not_expanded_inside_itself)
{
    ASSERT_PP("#define foo foo + 1\nfoo", "foo + 1");
    ASSERT_PP("#define AA BB\n#define BB AA\nAA BB", "AA BB");
    ASSERT_PP("#define f(x) f(x + 1)\nf(f(0))", "f(f(0 + 1) + 1)");
    /* A painted name stays painted when it is passed on as an argument. */
    ASSERT_PP("#define foo a foo\n#define id(x) x\nid(foo)", "a foo");
    ASSERT_PP("#define foo foo\n#define bar(x) x\nbar(foo)", "foo");
    ASSERT_PP("#define f(x) x\nf(f)(1)", "f(1)");
    /* The hide set of a call is that of its name and its `)` (Prosser): g's own
     * replacement may call f again when the `)` came from outside f (gcc and clang too). */
    ASSERT_PP("#define f(x) g(x\n#define g(x) x f\nf(1))(2))", "1 2 f");
}

TEST(stringizing_follows_cs_spacing_and_escaping)
{
    ASSERT_STR_EQ(pp("#define s(x) #x\ns(  a   +\n  b  )"), "\"a + b\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\ns(a/* comment */b)"), "\"a b\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\ns(a+b)"), "\"a+b\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\ns()"), "\"\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\ns(\"a\\n\")"), "\"\\\"a\\\\n\\\"\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\ns('\"') s('\\\\')"), "\"'\\\"'\" \"'\\\\\\\\'\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\ns(L\"x\" u8\"y\")"), "\"L\\\"x\\\" u8\\\"y\\\"\"");
    ASSERT_STR_EQ(pp("#define s(...) #__VA_ARGS__\ns(a,b , c)"), "\"a,b , c\"");
    ASSERT_STR_EQ(pp("#define s(x) #x\n#define xs(x) s(x)\n#define E\nxs(a E b) xs(E a)"),
                  "\"a b\" \"a\"");
    ASSERT_STR_EQ(msgs(), "");
}

TEST(pasting_makes_one_token_and_rescans_it)
{
    ASSERT_PP("#define cat(a, b) a ## b\n#define ab 42\n"
              "cat(a, b) cat(+, +) cat(-, >) cat(<<, =) cat(1, e5) cat(L, \"x\") cat(x, 1) "
              "cat(1, .5)",
              "42 ++ -> <<= 1e5 L\"x\" x1 1.5");
    ASSERT_PP("#define cat(a, b) a ## b\ncat(, y) cat(x, ) cat(,)", "y x");
    /* The operands are the arguments' first and last tokens. */
    ASSERT_PP("#define cat(a, b) a ## b\ncat(1 2, 3 4)", "1 23 4");
    /* `a ## ## b` is one paste, as gcc reads it. */
    ASSERT_PP("#define cat2(a, b) a ## ## b\ncat2(x, y)", "xy");
    /* A result that names the macro being expanded is not expanded again. */
    ASSERT_PP("#define cat(a, b) a ## b\n#define catself cat(cat, self)\ncatself", "catself");
}

TEST(an_invalid_paste_is_an_error_naming_both_tokens)
{
    pp("#define cat(a, b) a ## b\n\ncat(+, -) cat(/, /)\n");
    ASSERT_CONTAINS(msgs(), "test.cu:3:1: error: pasting \"+\" and \"-\" does not give a valid "
                            "preprocessing token");
    ASSERT_CONTAINS(msgs(), "test.cu:3:11: error: pasting \"/\" and \"/\"");
    ASSERT_EQ(unit->status, LAT_ERROR_COMPILE);
    /* Both tokens stay, as gcc leaves them. */
    ASSERT_STR_EQ(spelled(&unit->toks), "+ - / /");
}

TEST(variadic_macros_gnu_comma_and_named_variable_arguments)
{
    ASSERT_PP("#define G(...) g(0, ## __VA_ARGS__)\n#define ONE 1\n"
              "G() G(ONE) G(ONE, 2)",
              "g(0) g(0,1) g(0,1, 2)");
    ASSERT_PP("#define V(x, ...) v(x, ##__VA_ARGS__)\nV(1) V(1,) V(1,2)", "v(1) v(1,) v(1,2)");
    ASSERT_PP("#define N(fmt, args...) p(fmt, args)\nN(\"a\", 1, 2)", "p(\"a\", 1, 2)");
    ASSERT_PP("#define E(...) [__VA_ARGS__]\nE() E( ) E(a, (b, c), d)", "[] [] [a, (b, c), d]");
}

TEST(va_opt_as_c23_specifies_it)
{
    /* C23 6.10.5.1's examples. */
    ASSERT_PP("#define F(...) f(0 __VA_OPT__(,) __VA_ARGS__)\n"
              "#define G(X, ...) f(0, X __VA_OPT__(,) __VA_ARGS__)\n"
              "#define SDEF(sname, ...) S sname __VA_OPT__(= { __VA_ARGS__ })\n"
              "#define EMP\n"
              "F(a,b,c) F() F(EMP) G(a,b,c) G(a,) G(a) SDEF(foo); SDEF(bar, 1, 2);\n",
              "f(0, a,b,c) f(0) f(0) f(0, a, b,c) f(0, a) f(0, a) S foo; S bar = { 1, 2 };");
    ASSERT_PP("#define H2(X, Y, ...) __VA_OPT__(X ## Y,) __VA_ARGS__\nH2(a, b, c, d)",
              "ab, c, d");
    ASSERT_PP("#define H3(X, ...) #__VA_OPT__(X##X X##X)\nH3(, 0)", "\"\"");
    ASSERT_PP("#define H4(X, ...) __VA_OPT__(a X ## X) ## b\nH4(, 1)", "a b");
    ASSERT_PP("#define H5A(...) __VA_OPT__()/**/__VA_OPT__()\n"
              "#define H5B(X) a ## X ## b\n#define H5C(X) H5B(X)\nH5C(H5A())",
              "ab");
}

TEST(wrong_argument_counts_and_unterminated_calls_are_errors)
{
    pp("#define f(a, b) a b\nf(1)\n f(1, 2, 3)\n");
    ASSERT_CONTAINS(msgs(), "test.cu:2:1: error: macro \"f\" requires 2 arguments, but only 1 given");
    ASSERT_CONTAINS(msgs(), "test.cu:3:2: error: macro \"f\" passed 3 arguments, but takes just 2");
    pp("#define f(a) a\nint x;\nf(1, (2)\n");
    ASSERT_CONTAINS(msgs(), "test.cu:3:1: error: unterminated argument list invoking macro \"f\"");
    ASSERT_STR_EQ(spelled(&unit->toks), "int x ;");
    ASSERT_PP("#define z() 0\n#define one(a) [a]\nz() one()", "0 []");
}

TEST(define_errors_are_reported_with_their_places)
{
    pp("#define\n#define 3\n#define defined\n#define f(x, x) x\n#define g(x) #y\n"
       "#define h(x) ## x\n#define i(x y) x\n#define j(... ) __VA_OPT__(a\n");
    const char *m = msgs();
    ASSERT_CONTAINS(m, "test.cu:1:2: error: no macro name given in #define directive");
    ASSERT_CONTAINS(m, "test.cu:2:9: error: macro names must be identifiers");
    ASSERT_CONTAINS(m, "test.cu:3:9: error: \"defined\" cannot be used as a macro name");
    ASSERT_CONTAINS(m, "test.cu:4:14: error: duplicate macro parameter \"x\"");
    ASSERT_CONTAINS(m, "test.cu:5:14: error: '#' is not followed by a macro parameter");
    ASSERT_CONTAINS(m, "test.cu:6:14: error: '##' cannot appear at either end of a macro expansion");
    ASSERT_CONTAINS(m, "test.cu:7:13: error: expected ',' or ')' in macro parameter list");
    ASSERT_CONTAINS(m, "test.cu:8:17: error: unterminated __VA_OPT__");
}

TEST(undef_and_push_pop_macro)
{
    ASSERT_PP("#define X 1\nX\n#undef X\nX", "1 X");
    ASSERT_PP("#define X 1\n#pragma push_macro(\"X\")\n#undef X\n#define X 2\nX\n"
              "#pragma pop_macro(\"X\")\nX",
              "2 1");
}

/* ---- #if ------------------------------------------------------------------------------- */

/* Whether `#if expr` takes its group. */
static int if_value(const char *expr)
{
    char src[512];
    snprintf(src, sizeof src, "#if %s\nyes\n#else\nno\n#endif\n", expr);
    const char *out = pp(src);
    return strcmp(out, "yes") == 0 ? 1 : strcmp(out, "no") == 0 ? 0 : -1;
}

#define ASSERT_IF(expr, want)                                                          \
    do {                                                                               \
        ASSERT_MSG(if_value(expr) == (want), "#if %s: want %d (%s)", expr, want,       \
                   msgs());                                                            \
        ASSERT_MSG(unit->nerrors == 0, "#if %s: %s", expr, msgs());                    \
    } while (0)

TEST(if_evaluates_integer_arithmetic_with_cs_precedence)
{
    ASSERT_IF("1 + 2 * 3 == 7", 1);
    ASSERT_IF("(1 + 2) * 3 == 9", 1);
    ASSERT_IF("10 / 3 == 3 && 10 % 3 == 1 && -7 / 2 == -3 && -7 % 2 == -1", 1);
    ASSERT_IF("~0 == -1 && !0 == 1 && !5 == 0 && -(-3) == 3 && +4 == 4", 1);
    ASSERT_IF("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5", 1);
    ASSERT_IF("1 < 2 && 2 <= 2 && 3 > 2 && 2 >= 3", 0);
    ASSERT_IF("0x10 == 16 && 010 == 8 && 0b101 == 5 && 1'000 == 1000", 1);
    ASSERT_IF("10L == 10 && 10ull == 10u && 7LU == 7", 1);
    ASSERT_IF("1 ? 2 : 3", 1);
    ASSERT_IF("0 ? 2 : 0", 0);
    ASSERT_IF("(0, 1)", 1);
    ASSERT_IF("UNDEFINED_NAME", 0);
    ASSERT_IF("UNDEFINED_NAME == 0", 1);
    ASSERT_IF("true && !false", 1);
    ASSERT_IF("9223372036854775807 + 0 > 0", 1);
}

TEST(if_follows_the_usual_arithmetic_conversions)
{
    ASSERT_IF("-1 < 0u", 0);
    ASSERT_IF("-1 < 0", 1);
    ASSERT_IF("-1 > 0u", 1);
    ASSERT_IF("0xffffffffffffffff == -1", 1);
    ASSERT_IF("0xffffffffffffffff > 0", 1);
    ASSERT_IF("(1 ? -1 : 0u) > 0", 1); /* the other branch's type counts */
    ASSERT_IF("(0 ? 0u : -1) > 0", 1);
    ASSERT_IF("-1 / 2u > 0", 1);
    ASSERT_IF("(2 || 0u) - 2 < 0", 1); /* && and || give int */
    ASSERT_IF("-9223372036854775807 - 1 < 0", 1);
    ASSERT_IF("(-9223372036854775807 - 1) / -1 < 0", 1); /* wraps, as in gcc */
}

TEST(if_shifts_like_gcc)
{
    ASSERT_IF("(1 << 62) > 0 && (1 << 63) < 0 && (1u << 63) > 0", 1);
    ASSERT_IF("-16 >> 2 == -4 && (-1 >> 63) == -1 && (0xffffffffffffffff >> 63) == 1", 1);
    ASSERT_IF("(1 << 64) == 0 && (1 << -1) == 0 && (4 >> -1) == 8", 1);
}

TEST(if_reads_character_constants)
{
    ASSERT_IF("'A' == 65 && '\\n' == 10 && '\\0' == 0 && '\\x41' == 65 && '\\101' == 65", 1);
    ASSERT_IF("'\\377' < 0", 1); /* char is signed */
    ASSERT_IF("u'\\xffff' == 65535 && U'\\x7fffffff' > 0 && L'\\xffffffff' < 0", 1);
    ASSERT_IF("'\\'' == 39 && '\\\\' == 92 && '\"' == 34", 1);
}

TEST(if_defined_and_has_operators)
{
    ASSERT_PP("#define X\n#if defined X && defined(X) && !defined Y && !defined(Y)\nyes\n#endif",
              "yes");
    /* `defined` made by a macro works as gcc has it. */
    ASSERT_PP("#define X\n#define D defined(X)\n#if D\nyes\n#endif", "yes");
    ASSERT_PP("#if defined __has_include && defined(__has_builtin)\nyes\n#endif", "yes");
    ASSERT_PP("#if __has_builtin(__builtin_expect) || __has_attribute(noinline) || "
              "__has_feature(x) || __has_cpp_attribute(nodiscard)\nno\n#else\nyes\n#endif",
              "yes");
    ASSERT_PP("#if __has_include(<stdio.h>) && !__has_include(\"nowhere.h\") && "
              "__has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>) && !__has_include(<cuda_fp8.h>)\nyes\n#endif",
              "yes");
    ASSERT_PP("#ifdef __LINE__\nyes\n#endif\n#ifndef __cplusplus\nc\n#endif", "yes c");
}

TEST(unevaluated_operands_cannot_fail)
{
    ASSERT_IF("0 && 1 / 0", 0);
    ASSERT_IF("1 || 1 / 0", 1);
    ASSERT_IF("0 ? 1 / 0 : 2", 1);
    ASSERT_IF("1 ? 2 : 1 % 0", 1);
    ASSERT_PP("#if 1\na\n#elif 1 / 0\nb\n#else\nc\n#endif", "a");
}

TEST(if_errors_name_the_place_and_count_as_false)
{
    ASSERT_EQ(if_value("1 / 0"), 0);
    ASSERT_CONTAINS(msgs(), "test.cu:1:7: error: division by zero in #if");
    ASSERT_EQ(if_value("1.5"), 0);
    ASSERT_CONTAINS(msgs(), "test.cu:1:5: error: floating constant in preprocessor expression");
    ASSERT_EQ(if_value("1 2"), 0);
    ASSERT_CONTAINS(msgs(), "test.cu:1:7: error: missing binary operator before token \"2\"");
    ASSERT_EQ(if_value("(1"), 0);
    ASSERT_CONTAINS(msgs(), "missing ')' in expression");
    ASSERT_EQ(if_value("1 +"), 0);
    ASSERT_CONTAINS(msgs(), "error:");
    ASSERT_EQ(if_value("x = 1"), 0);
    ASSERT_CONTAINS(msgs(), "token \"=\" is not valid in preprocessor expressions");
    ASSERT_EQ(if_value("defined"), 0);
    ASSERT_CONTAINS(msgs(), "operator \"defined\" requires an identifier");
    ASSERT_EQ(if_value("\"s\""), 0);
    ASSERT_EQ(if_value("18446744073709551616"), 0);
    ASSERT_CONTAINS(msgs(), "too large");
    pp("#if\n#endif\n");
    ASSERT_CONTAINS(msgs(), "test.cu:1:2: error: #if with no expression");
}

TEST(conditionals_nest_and_skip_without_looking_inside)
{
    ASSERT_PP("#ifdef A\na\n#elif defined B\nb\n#else\n#  if 1\nc\n#  endif\n#endif", "c");
    ASSERT_PP("#define B\n#ifndef B\na\n#elifdef B\nb\n#endif\n#if 0\n#elifndef B\nc\n#else\nd\n#endif",
              "b d");
    /* Nothing in a skipped group is an error: directives, stray quotes, bad #ifs. */
    ASSERT_PP("#if 0\n#error no\n#foo\n#include \"nowhere.h\"\n don't \n#if 1/0\n#else junk\n"
              "#endif\n#define f(\n#endif\nok",
              "ok");
}

TEST(conditional_errors_are_reported)
{
    pp("#if 1\n#else\n#else\n#endif\n#endif\n#elif 1\n#else\n");
    const char *m = msgs();
    ASSERT_CONTAINS(m, "test.cu:3:2: error: #else after #else");
    ASSERT_CONTAINS(m, "test.cu:5:2: error: #endif without #if");
    ASSERT_CONTAINS(m, "test.cu:6:2: error: #elif without #if");
    ASSERT_CONTAINS(m, "test.cu:7:2: error: #else without #if");
    pp("x\n#if 1\n  #ifdef A\n");
    ASSERT_CONTAINS(msgs(), "test.cu:3:4: error: unterminated #ifdef");
    ASSERT_CONTAINS(msgs(), "test.cu:2:2: error: unterminated #if");
    pp("#if 0\n#else\n#elif 1\n#endif\n");
    ASSERT_CONTAINS(msgs(), "test.cu:3:2: error: #elif after #else");
    pp("#ifdef\n#endif\n#ifdef 3\n#endif\n#ifdef A B\n#endif junk\n");
    ASSERT_CONTAINS(msgs(), "test.cu:1:2: error: no macro name given in #ifdef directive");
    ASSERT_CONTAINS(msgs(), "test.cu:3:8: error: macro names must be identifiers");
    ASSERT_CONTAINS(msgs(), "test.cu:5:10: warning: extra tokens at end of #ifdef directive");
    ASSERT_CONTAINS(msgs(), "test.cu:6:8: warning: extra tokens at end of #endif directive");
}

/* ---- directives ----------------------------------------------------------------------- */

TEST(error_and_warning_directives)
{
    pp("int x;\n #error  the  \"kernel\" is wrong\n#warning careful\n#error\n");
    ASSERT_CONTAINS(msgs(), "test.cu:2:3: error: #error the \"kernel\" is wrong");
    ASSERT_CONTAINS(msgs(), "test.cu:3:2: warning: #warning careful");
    ASSERT_CONTAINS(msgs(), "test.cu:4:2: error: #error");
    ASSERT_EQ(unit->status, LAT_ERROR_COMPILE);
    ASSERT_EQ(unit->nerrors, 2);
    ASSERT_STR_EQ(spelled(&unit->toks), "int x ;");
}

TEST(unknown_directives_are_errors_null_directives_and_ident_are_not)
{
    pp("#\n# /* nothing */\n#ident \"v1\"\n#sccs \"v2\"\n  # foo bar\n#123abc\n");
    ASSERT_CONTAINS(msgs(), "test.cu:5:5: error: unknown directive #foo");
    ASSERT_EQ(unit->nerrors, 2);
    /* A # or ## that starts no directive is an ordinary token. */
    ASSERT_PP("a # b ## c\n#define E\nE # x", "a # b ## c # x");
}

TEST(every_error_is_reported_and_the_rest_still_preprocessed)
{
    pp("#error one\n#foo\n#define f(x) x\nf(1, 2)\n#if 1/0\n#endif\nint kept;\n");
    ASSERT_EQ(unit->nerrors, 4);
    ASSERT_STR_EQ(spelled(&unit->toks), "int kept ;");
}

TEST(line_sets_the_next_lines_number_and_file_name)
{
    lat__unit *u = run_in("a\n#line 100\nb __LINE__\n\nc __LINE__ __FILE__\n#line 7 \"foo.cu\"\n"
                          "d __LINE__ __FILE__\n#error here\n",
                          NULL);
    ASSERT_STR_EQ(spelled(&u->toks), "a b 100 c 102 \"test.cu\" d 7 \"foo.cu\"");
    ASSERT_EQ(u->toks.items[1].loc.line, 100);
    ASSERT_STR_EQ(lat__loc_file(u, u->toks.items[1].loc), "test.cu");
    ASSERT_EQ(u->toks.items[6].loc.line, 7);
    ASSERT_STR_EQ(lat__loc_file(u, u->toks.items[6].loc), "foo.cu");
    ASSERT_CONTAINS(msgs(), "foo.cu:8:2: error: #error here");
    /* Its operands may be macros; comments and continued lines after it count. */
    ASSERT_PP("#define L 50\n#line L\n__LINE__", "50");
    ASSERT_PP("#line 10 /* a\n comment */\n__LINE__\n#line 20 \\\n\n__LINE__", "10 20");
    ASSERT_PP("# 33 \"x.c\" 1\n__LINE__ __FILE__", "33 \"x.c\"");
    pp("#line x\n#line 4294967296\n#line 5 foo\n");
    ASSERT_CONTAINS(msgs(), "test.cu:1:7: error: \"x\" after #line is not a positive integer");
    ASSERT_CONTAINS(msgs(), "test.cu:2:7: error: line number out of range");
    ASSERT_CONTAINS(msgs(), "test.cu:3:9: error: invalid filename \"foo\"");
}

TEST(line_inside_a_call_spanning_lines_is_where_each_token_is)
{
    /* The macro's own __LINE__ is the call's line; an argument's is where it is written. */
    ASSERT_PP("\n#define F(x, y) x y __LINE__\nF(a,\n  __LINE__\n  )\n", "a 4 3");
    ASSERT_PP("#define H(a) a\nH(\n__LINE__\n)", "3");
    ASSERT_PP("#define L __LINE__\n#define G(x) x L\n\nG(\nL)", "5 4");
}

TEST(pragmas_become_tokens_and_are_not_expanded)
{
    lat__unit *u = run_in("#define N 4\nint a;\n  #pragma unroll N\n_Pragma(\"omp parallel for\") x\n"
                          "#define UNROLL(n) _Pragma(#n) y\nUNROLL(unroll 8)\n"
                          "_Pragma(\"message(\\\"hi \\\\\\\"x\\\\\\\"\\\")\")\n",
                          NULL);
    ASSERT_STR_EQ(msgs(), "");
    ASSERT_STR_EQ(spelled(&u->toks), "int a ; #pragma unroll N #pragma omp parallel for x "
                                      "#pragma unroll 8 y #pragma message(\"hi \\\"x\\\"\")");
    const lat__tok *t = &u->toks.items[3];
    ASSERT_EQ(t->kind, LAT_TK_PRAGMA);
    ASSERT_EQ(t->loc.line, 3);
    ASSERT_EQ(t->loc.col, 3);
    ASSERT_EQ(u->toks.items[5].loc.line, 4);
    ASSERT_EQ(u->toks.items[6].loc.line, 6);
    pp("_Pragma(x)\n_Pragma\n");
    ASSERT_CONTAINS(msgs(), "test.cu:1:1: error: _Pragma takes a parenthesized string literal");
}

TEST(predefined_and_builtin_macros)
{
    ASSERT_PP("__STDC__ __STDC_VERSION__ __STDC_HOSTED__ __DATE__ __TIME__",
              "1 201112L 0 \"Jan  1 2000\" \"00:00:00\"");
    ASSERT_PP("__COUNTER__ __COUNTER__ __COUNTER__ __FILE__ __BASE_FILE__ __INCLUDE_LEVEL__",
              "0 1 2 \"test.cu\" \"test.cu\" 0");
    pp("__has_include(\"x\")\n");
    ASSERT_CONTAINS(msgs(), "test.cu:1:1: error: \"__has_include\" may only be used in #if and #elif");
    pp("#define __LINE__ 5\n#undef __FILE__\n__LINE__ __FILE__\n");
    ASSERT_CONTAINS(msgs(), "warning: redefining builtin macro \"__LINE__\"");
    ASSERT_CONTAINS(msgs(), "warning: undefining \"__FILE__\"");
    ASSERT_STR_EQ(spelled(&unit->toks), "5 __FILE__");
}

TEST(defines_and_undefines_from_options)
{
    const char *defs[] = {"ONE", "TWO=2", "SQ(x)=((x)*(x))", "EMPTY=", NULL};
    const char *undefs[] = {"TWO", "__STDC_HOSTED__", NULL};
    lat__pp_in in = {.defines = defs, .undefines = undefs};
    lat__unit *u = run_in("ONE TWO SQ(3) [EMPTY] __STDC_HOSTED__", &in);
    ASSERT_STR_EQ(spelled(&u->toks), tokens_of("1 TWO ((3)*(3)) [ ] __STDC_HOSTED__"));
    ASSERT_STR_EQ(msgs(), "");
    const char *bad[] = {"3X=1", NULL};
    in = (lat__pp_in){.defines = bad};
    run_in("", &in);
    ASSERT_CONTAINS(msgs(), "<command line>:1:9: error: macro names must be identifiers");
}

TEST(the_emulators_predefined_macros)
{
    lat__pp_in in = {.predefined = lat__front_predefined(), .assert_h = lat__front_assert_h(),
                     .profile = &lat__emu_profile};
    lat__unit *u = run_in("__CUDACC__ __CUDA_ARCH__ __LATTICE_EMU__ __CUDACC_VER_MAJOR__ warpSize "
                          "INT_MAX UINT64_C(5) INT64_MIN FLT_MAX M_PI CUDART_PI_F NULL "
                          "offsetof(S, m) __ldg(p)\n"
                          "#ifdef __cplusplus\ncpp\n#endif\n"
                          "#if __CUDA_ARCH__ >= 700 && INT_MAX == 2147483647 && UINT64_MAX > 0 && "
                          "SIZE_MAX == 18446744073709551615u && __bool_true_false_are_defined\n"
                          "yes\n#endif\n",
                          &in);
    ASSERT_STR_EQ(msgs(), "");
    ASSERT_STR_EQ(spelled(&u->toks),
                  tokens_of("1 800 1 12 32 2147483647 5UL (-9223372036854775807L - 1L) "
                            "3.40282346638528859812e+38F 3.14159265358979323846 3.141592654f "
                            "((void *)0) __builtin_offsetof(S, m) (*(p)) yes"));
    /* The names the parser knows are not macros. */
    ASSERT_STR_EQ(pp("threadIdx __syncthreads() atomicAdd min max printf bool true nullptr"),
                  "threadIdx __syncthreads ( ) atomicAdd min max printf bool true nullptr");
}

TEST(assert_follows_ndebug_where_assert_h_is_included)
{
    lat__pp_in in = {.predefined = lat__front_predefined(), .assert_h = lat__front_assert_h()};
    lat__unit *u = run_in("assert(x > 0);", &in);
    ASSERT_STR_EQ(spelled(&u->toks),
                  tokens_of("((x > 0) ? (void)0 : __lat_assert_fail(\"x > 0\", \"test.cu\", 1));"));
    const char *ndebug[] = {"NDEBUG", NULL};
    in.defines = ndebug;
    u = run_in("assert(x > 0);", &in);
    ASSERT_STR_EQ(spelled(&u->toks), "( ( void ) 0 ) ;");
    in.defines = NULL;
    u = run_in("#define NDEBUG\n#include <assert.h>\nassert(1);\n#undef NDEBUG\n#include <cassert>\n"
               "assert(2);",
               &in);
    ASSERT_STR_EQ(spelled(&u->toks),
                  tokens_of("((void)0); ((2) ? (void)0 : __lat_assert_fail(\"2\", \"test.cu\", 6));"));
    ASSERT_STR_EQ(msgs(), "");
}

/* ---- places --------------------------------------------------------------------------- */

TEST(tokens_are_placed_at_the_outermost_call_arguments_at_their_own)
{
    lat__unit *u = run_in("#define ADD(a, b) (a + b)\n#define TWICE(x) ADD(x, x)\n"
                          "int y =\n    TWICE(z);\n",
                          NULL);
    /* int y = ( z + z ) ; */
    ASSERT_STR_EQ(spelled(&u->toks), "int y = ( z + z ) ;");
    const lat__tok *lp = &u->toks.items[3], *z1 = &u->toks.items[4], *plus = &u->toks.items[5];
    ASSERT_EQ(lp->loc.line, 4);
    ASSERT_EQ(lp->loc.col, 5);
    ASSERT_EQ(lp->spell.line, 1); /* spelled in ADD's body */
    ASSERT_EQ(lp->spell.col, 19);
    ASSERT_TRUE(lp->flags & LAT_TF_MACRO);
    ASSERT_EQ(plus->loc.line, 4);
    ASSERT_EQ(plus->spell.line, 1);
    ASSERT_EQ(z1->loc.line, 4); /* the argument's own place */
    ASSERT_EQ(z1->loc.col, 11);
    ASSERT_TRUE(!(z1->flags & LAT_TF_MACRO));
    ASSERT_EQ(u->toks.items[0].loc.line, 3);
    ASSERT_TRUE(!(u->toks.items[0].flags & LAT_TF_MACRO));
    for (size_t i = 0; i < u->toks.n; i++) {
        ASSERT_NULL(u->toks.items[i].hide);
        if (u->toks.items[i].kind == LAT_TK_IDENT)
            ASSERT_NOT_NULL(u->toks.items[i].atom);
    }
    ASSERT_EQ(u->toks.items[u->toks.n].kind, LAT_TK_EOF);
    /* Line starts and spaces follow the source, as gcc -E -P prints them. */
    u = run_in("#define F(x) { x; }\nint a;  F(b)\n  c\n", NULL);
    ASSERT_STR_EQ(spaced(&u->toks), "int a; { b; }\nc");
}

/* ---- #include -------------------------------------------------------------------------- */

static char tmpdir[64];

static const char *make_dir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/lattice_pp_XXXXXX");
    ASSERT_NOT_NULL(mkdtemp(tmpdir));
    return tmpdir;
}

static void remove_dir(const char *dir)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_EQ(system(cmd), 0);
}

static const char *path_in(const char *dir, const char *name)
{
    char *p = t_calloc(strlen(dir) + strlen(name) + 2, 1);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    const char *p = path_in(dir, name);
    char *slash = strrchr(p, '/');
    if (slash > p + strlen(dir)) { /* a subdirectory */
        *slash = '\0';
        mkdir(p, 0700);
        *slash = '/';
    }
    FILE *f = fopen(p, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

/* Preprocesses the file `name` of dir (as a path, as the library reads files). */
static lat__unit *run_file(const char *dir, const char *name, const lat__pp_in *in)
{
    const char *p = path_in(dir, name);
    FILE *f = fopen(p, "r");
    ASSERT_NOT_NULL(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    lat__unit *u = unit_new(p, p, text);
    if (setjmp(u->oom))
        FAIL("out of memory");
    lat__pp_run(u, in);
    return u;
}

TEST(quoted_includes_start_beside_the_including_file_then_the_search_list)
{
    const char *d = make_dir();
    write_file(d, "main.cu", "#include \"sub/a.h\"\n#include <c.h>\nmain\n");
    write_file(d, "sub/a.h", "a1\n#include \"b.h\"\na2\n");
    write_file(d, "sub/b.h", "b_beside_a\n");
    write_file(d, "b.h", "b_beside_main\n");
    const char *inc = path_in(d, "inc"), *opt = path_in(d, "opt");
    write_file(d, "inc/c.h", "c_from_include_dirs\n");
    write_file(d, "opt/c.h", "c_from_options\n");
    const char *dirs[] = {inc, NULL}, *opts[] = {opt, NULL};
    lat__pp_in in = {.include_dirs = dirs, .option_include_dirs = opts};
    lat__unit *u = run_file(d, "main.cu", &in);
    ASSERT_STR_EQ(msgs(), "");
    ASSERT_STR_EQ(spelled(&u->toks), "a1 b_beside_a a2 c_from_include_dirs main");
    /* Each token is in its own file, whose name is the path it was found at. */
    ASSERT_CONTAINS(lat__loc_file(u, u->toks.items[1].loc), "/sub/b.h");
    ASSERT_EQ(u->toks.items[1].loc.line, 1);
    ASSERT_CONTAINS(lat__loc_file(u, u->toks.items[3].loc), "/inc/c.h");
    ASSERT_CONTAINS(lat__loc_file(u, u->toks.items[4].loc), "/main.cu");
    ASSERT_EQ(u->toks.items[4].loc.line, 3);
    /* Angle brackets do not look beside the file; options come after include_dirs. */
    write_file(d, "main2.cu", "#include <b.h>\n");
    run_file(d, "main2.cu", &in);
    ASSERT_CONTAINS(msgs(), "main2.cu:1:10: error: cannot find the header 'b.h' (searched: ");
    ASSERT_EQ(unit->status, LAT_ERROR_FILE);
    const char *opts_only[] = {opt, NULL};
    in = (lat__pp_in){.option_include_dirs = opts_only};
    u = run_file(d, "main.cu", &in);
    ASSERT_STR_EQ(spelled(&u->toks), "a1 b_beside_a a2 c_from_options main");
    remove_dir(d);
}

TEST(computed_includes_and_include_next)
{
    const char *d = make_dir();
    const char *one = path_in(d, "one"), *two = path_in(d, "two");
    write_file(d, "one/h.h", "one\n#if __has_include_next(<h.h>) && !__has_include_next(<x.h>)\n"
                             "#include_next <h.h>\n#endif\n__INCLUDE_LEVEL__\n");
    write_file(d, "two/h.h", "two __FILE__ __INCLUDE_LEVEL__\n");
    write_file(d, "main.cu", "#define Q \"h.h\"\n#define A <h.h>\n#define S(x) #x\n"
                             "#include Q\n#include A\n#include S(h.h)\n");
    const char *dirs[] = {one, two, NULL};
    lat__pp_in in = {.include_dirs = dirs};
    lat__unit *u = run_file(d, "main.cu", &in);
    ASSERT_STR_EQ(msgs(), "");
    char want[512];
    snprintf(want, sizeof want, "one two \"%s/h.h\" 2 1 one two \"%s/h.h\" 2 1 one two \"%s/h.h\" 2 1",
             two, two, two);
    ASSERT_STR_EQ(spelled(&u->toks), tokens_of(want));
    remove_dir(d);
}

TEST(pragma_once_and_include_guards_read_a_header_once)
{
    const char *d = make_dir();
    write_file(d, "once.h", "#pragma once\nonce\n");
    write_file(d, "guard.h", "// a guard\n#ifndef GUARD_H\n#define GUARD_H\nguarded\n#endif\n");
    write_file(d, "guard2.h", "#if !defined(G2)\n#define G2\nguarded2\n#endif // G2\n");
    write_file(d, "op.h", "_Pragma(\"once\") op\n");
    /* Not a guard: something follows the #endif. */
    write_file(d, "ng.h", "#ifndef NG_H\n#define NG_H\nng\n#endif\nafter\n");
    write_file(d, "main.cu", "#include \"once.h\"\n#include \"guard.h\"\n#include \"once.h\"\n"
                             "#include \"guard.h\"\n#include \"guard2.h\"\n#include \"guard2.h\"\n"
                             "#include \"op.h\"\n#include \"op.h\"\n"
                             "#undef GUARD_H\n#include \"guard.h\"\n#include \"ng.h\"\n#include \"ng.h\"\n");
    lat__unit *u = run_file(d, "main.cu", NULL);
    ASSERT_STR_EQ(msgs(), "");
    /* After #undef GUARD_H the guard lets it in again: the guard is obeyed, not assumed. */
    ASSERT_STR_EQ(spelled(&u->toks), "once guarded guarded2 op guarded ng after after");
    /* A guarded header is skipped without being entered: read twice, it has one entry
     * in the file table per time it was read (the second after its #undef). */
    int entered = 0;
    for (size_t i = 0; i < u->files.n; i++)
        entered += u->files.items[i].display && strstr(u->files.items[i].display, "/guard.h") != NULL;
    ASSERT_EQ(entered, 2);
    remove_dir(d);
}

TEST(a_header_including_itself_stops_at_the_depth_limit)
{
    const char *d = make_dir();
    write_file(d, "self.h", "x\n#include \"self.h\"\n");
    write_file(d, "main.cu", "#include \"self.h\"\n");
    lat__unit *u = run_file(d, "main.cu", NULL);
    ASSERT_CONTAINS(msgs(), "self.h:2:10: error: #include nested more than 64 deep (does "
                            "'self.h' include itself without a guard?)");
    ASSERT_EQ(u->status, LAT_ERROR_FILE);
    ASSERT_EQ(u->nerrors, 1);
    ASSERT_EQ(u->toks.n, 64);
    remove_dir(d);
}

TEST(includes_of_what_is_not_a_regular_file_fail_without_hanging)
{
    const char *d = make_dir();
    ASSERT_EQ(mkfifo(path_in(d, "fifo.h"), 0600), 0);
    ASSERT_EQ(mkdir(path_in(d, "dir.h"), 0700), 0);
    /* Larger than the 64 MiB cap: sparse, so that making it costs nothing. */
    FILE *big = fopen(path_in(d, "big.h"), "w");
    ASSERT_NOT_NULL(big);
    ASSERT_EQ(ftruncate(fileno(big), (off_t)65 << 20), 0);
    fclose(big);
    write_file(d, "main.cu", "#include \"fifo.h\"\n#include \"dir.h\"\n#include \"/dev/zero\"\n"
                             "#include \"/dev/null\"\n#include \"/\"\n#include \"big.h\"\n"
                             "#include \"/dev/stdin\"\nok\n");
    lat__unit *u = run_file(d, "main.cu", NULL);
    const char *m = msgs();
    ASSERT_CONTAINS(m, "main.cu:1:10: error: cannot read the header '");
    ASSERT_CONTAINS(m, "fifo.h': it is not a regular file");
    ASSERT_CONTAINS(m, "main.cu:2:10: error: cannot find the header 'dir.h'");
    ASSERT_CONTAINS(m, "main.cu:3:10: error: cannot read the header '/dev/zero': it is not a regular file");
    ASSERT_CONTAINS(m, "main.cu:4:10: error: cannot read the header '/dev/null'");
    ASSERT_CONTAINS(m, "main.cu:5:10: error: cannot find the header '/'");
    ASSERT_CONTAINS(m, "big.h': it is larger than 64 MiB");
    struct stat in;
    if (fstat(0, &in) == 0 && !S_ISREG(in.st_mode)) /* a terminal, a pipe or /dev/null */
        ASSERT_CONTAINS(m, "main.cu:7:10: error: cannot read the header '/dev/stdin'");
    ASSERT_EQ(u->status, LAT_ERROR_FILE);
    ASSERT_STR_EQ(spelled(&u->toks), "ok");
    remove_dir(d);
}

TEST(include_errors_builtin_unsupported_and_missing_headers)
{
    ASSERT_PP("#include <stdio.h>\n#include <cuda_runtime.h>\n#include \"math.h\"\nok", "ok");
    pp("#include <cuda_fp8.h>\n");
    ASSERT_CONTAINS(msgs(), "test.cu:1:10: error: #include <cuda_fp8.h> is not supported by the "
                            "lattice emulator yet (that CUDA library is not emulated)");
    ASSERT_EQ(unit->status, LAT_ERROR_UNSUPPORTED);
    pp("// header\n#include \"nowhere.h\"\n");
    ASSERT_CONTAINS(msgs(), "test.cu:2:10: error: cannot find the header 'nowhere.h' (searched: .)");
    ASSERT_EQ(unit->status, LAT_ERROR_FILE);
    const char *dirs[] = {"/nonexistent/a", NULL}, *opts[] = {"/nonexistent/b", NULL};
    lat__pp_in in = {.include_dirs = dirs, .option_include_dirs = opts};
    run_in("#include <nowhere.h>\n", &in);
    ASSERT_CONTAINS(msgs(), "cannot find the header 'nowhere.h' (searched: /nonexistent/a, /nonexistent/b)");
    pp("#include\n#include nothing\n#include \"\"\n#define F(x) x\nF(\n#include \"a.h\"\n)\n");
    const char *m = msgs();
    ASSERT_CONTAINS(m, "test.cu:1:2: error: #include expects \"FILENAME\" or <FILENAME>");
    ASSERT_CONTAINS(m, "test.cu:2:10: error: #include expects \"FILENAME\" or <FILENAME>");
    ASSERT_CONTAINS(m, "test.cu:3:10: error: empty filename in #include");
    ASSERT_CONTAINS(m, "test.cu:6:10: error: #include inside the arguments of a macro call");
}

/* ---- limits and hostile input ---------------------------------------------------------- */

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

TEST(an_exponential_macro_hits_a_limit_not_all_memory)
{
    char src[4096], *at = src;
    at += sprintf(at, "#define A0 x x\n");
    for (int i = 1; i <= 40; i++)
        at += sprintf(at, "#define A%d A%d A%d\n", i, i - 1, i - 1);
    sprintf(at, "A40\n");
    double t0 = seconds();
    pp(src);
    ASSERT_CONTAINS(msgs(), "error: ");
    ASSERT_CONTAINS(msgs(), "too large");
    printf("# %.2f s\n", seconds() - t0); /* for the reader; a hang times the test out */
    /* The same through arguments expanded before substitution. */
    at = src;
    at += sprintf(at, "#define f(x) x x\n");
    for (int i = 0; i < 40; i++)
        at += sprintf(at, "f(");
    at += sprintf(at, "1");
    for (int i = 0; i < 40; i++)
        at += sprintf(at, ")");
    pp(src);
    ASSERT_CONTAINS(msgs(), "too large");
}

TEST(deep_nesting_is_an_error_not_a_stack_overflow)
{
    size_t n = 200000;
    char *src = t_calloc(3 * n + 64, 1), *at = src;
    at += sprintf(at, "#define f(x) x\n");
    for (size_t i = 0; i < 1000; i++)
        *at++ = 'f', *at++ = '(';
    for (size_t i = 0; i < 1000; i++)
        *at++ = ')';
    pp(src);
    ASSERT_CONTAINS(msgs(), "macro calls nested too deeply");
    at = src + sprintf(src, "#if ");
    for (size_t i = 0; i < n; i++)
        *at++ = '(';
    *at++ = '1';
    for (size_t i = 0; i < n; i++)
        *at++ = ')';
    *at = '\0';
    pp(src);
    ASSERT_CONTAINS(msgs(), "nested too deeply");
    at = src + sprintf(src, "#if ");
    for (size_t i = 0; i < n; i++)
        *at++ = '~';
    sprintf(at, "1\n#endif\n");
    pp(src);
    ASSERT_CONTAINS(msgs(), "nested too deeply");
    /* A long chain of object-like macros nests no calls, but each token remembers every
     * macro it came out of: a few thousand are fine, more are an error, not a slowdown. */
    at = src;
    for (int i = 0; i < 4000; i++)
        at += sprintf(at, "#define M%d M%d\n", i, i + 1);
    sprintf(at, "M0\n");
    ASSERT_STR_EQ(pp(src), "M4000");
    ASSERT_STR_EQ(msgs(), "");
    at = src;
    for (int i = 0; i < 20000; i++)
        at += sprintf(at, "#define M%d M%d\n", i, i + 1);
    sprintf(at, "M0\n");
    double t0 = seconds();
    pp(src);
    ASSERT_CONTAINS(msgs(), "macro expansion nested too deeply (more than 4096 macros");
    printf("# %.2f s\n", seconds() - t0); /* for the reader; a hang times the test out */
}

/* A byte string of length n from a small alphabet of C's and the preprocessor's pieces. */
static void soup(char *out, size_t n)
{
    static const char *const bits[] = {
        "#define ", "#undef ", "#if ", "#ifdef ", "#elif ", "#else\n", "#endif\n", "#include ",
        "#line ", "#pragma ", "_Pragma", "defined", "__VA_ARGS__", "__VA_OPT__", "...", "(",
        ")", "(", ")", ",", "#", "##", "\n", "\n", " ", "f", "g", "x", "y", "f(x)", "g(x,y)",
        "1", "0", "\"s\"", "'c'", "<a.h>", "\"a.h\"", "+", "-", "/", "?", ":", "&&", "\\\n",
        "/*", "*/", "//", "'", "\"", "__LINE__", "__FILE__", "__COUNTER__", "__has_include",
        "x ## y", "#x", "f f", "g(f)", "@", "\x01", "\xff", "0x", "1.5", "1e+", "<", ">",
    };
    size_t at = 0;
    while (at < n) {
        const char *b = bits[t_rand_u32() % (sizeof bits / sizeof bits[0])];
        size_t k = strlen(b);
        if (at + k >= n)
            break;
        memcpy(out + at, b, k);
        at += k;
    }
    out[at] = '\0';
}

TEST(random_bytes_and_token_soup_terminate_quickly)
{
    static char src[4096];
    double t0 = seconds();
    for (int round = 0; round < 3000; round++) {
        size_t n = 1 + t_rand_u32() % (sizeof src - 1);
        if (round % 3 == 0) {
            for (size_t i = 0; i < n; i++)
                src[i] = (char)(1 + t_rand_u32() % 255);
            src[n] = '\0';
        } else {
            soup(src, n);
        }
        lat__unit *u = run_in(src, NULL);
        ASSERT_EQ(u->toks.items[u->toks.n].kind, LAT_TK_EOF);
        for (size_t i = 0; i < u->toks.n; i++)
            ASSERT_MSG(u->toks.items[i].kind <= LAT_TK_PRAGMA, "token %zu of kind %d", i,
                       u->toks.items[i].kind);
    }
    printf("# %.2f s\n", seconds() - t0); /* for the reader; a hang times the test out */
}

/* Runs main.cu with the arena failing its fail-th allocation; true when it ran out. */
static bool run_failing(const char *path, const char *src, long fail)
{
    unit_new(path, path, src);
    unit->arena.fail_after = fail;
    if (setjmp(unit->oom))
        return true; /* the next unit_new frees it: nothing may be left outside the arena */
    lat__pp_in in = {.predefined = lat__front_predefined(), .assert_h = lat__front_assert_h()};
    lat__pp_run(unit, &in);
    return false;
}

TEST(running_out_of_memory_anywhere_jumps_out_cleanly)
{
    const char *d = make_dir();
    write_file(d, "h.h", "#pragma once\n#define H(x) #x x ## x\n");
    const char *src = "#include \"h.h\"\n#if __has_include(\"h.h\") && defined H\nH(a) __FILE__\n#endif\n";
    write_file(d, "main.cu", src);
    const char *p = path_in(d, "main.cu");
    long fail = 1;
    while (run_failing(p, src, fail))
        fail++;
    ASSERT_STR_EQ(msgs(), "");
    ASSERT_EQ(unit->toks.n, 3);
    ASSERT_GT(fail, 10);
    unit_free();
    remove_dir(d);
}

TEST(a_thousand_line_kernel_preprocesses_to_the_same_tokens_every_time)
{
    /* Also prints lex + preprocess time, for the record only: a timed assertion fails on
     * busy machines and under valgrind. */
    size_t cap = 1 << 17;
    char *src = t_calloc(cap, 1), *at = src;
    at += sprintf(at, "#define IDX(i, j, n) ((i) * (n) + (j))\n#define SQ(x) ((x) * (x))\n"
                      "#define BLOCK 256\n#ifndef TILE\n#define TILE 16\n#endif\n");
    for (int i = 0; at - src < (long)cap - 200 && i < 994; i++)
        at += sprintf(at, "    float v%d = a[IDX(threadIdx.x, %d, BLOCK)] * SQ(b[%d]) + TILE; // c\n",
                      i, i, i);
    lat__pp_in in = {.predefined = lat__front_predefined(), .assert_h = lat__front_assert_h()};
    run_in(src, &in);
    ASSERT_STR_EQ(msgs(), "");
    size_t first = unit->toks.n;
    /* float v0 = a [ ( ( threadIdx . x ) * ( 256 ) + ( 0 ) ) ] * ( ( b [ 0 ] ) * ( b [ 0 ] ) ) + 16 ; */
    ASSERT_EQ(first, 994 * 40);
    double best = 1e9;
    for (int k = 0; k < 5; k++) {
        double t0 = seconds();
        run_in(src, &in);
        double t = seconds() - t0;
        best = t < best ? t : best;
        ASSERT_EQ(unit->toks.n, first);
    }
    printf("# 1,000 lines, %zu tokens out: %.0f us (lex + preprocess, best of 5)\n",
           unit->toks.n, best * 1e6);
}

/* Backslash-newlines (C11 5.1.1.2, phase 2) anywhere: inside identifiers, numbers and
 * punctuators, after a line comment (which they continue), at the text's end; the lexer
 * reads most characters straight from the text and must still see every splice. */
TEST(backslash_newlines_join_lines_inside_every_kind_of_token)
{
    ASSERT_PP("int ab\\\ncd = 1\\\n2;", "int abcd = 12;");
    ASSERT_PP("abc\\\r\ndef", "abcdef");
    ASSERT_PP("a -\\\n> b; c <\\\n<\\\n= 2; d .\\\n.. e", "a -> b; c <<= 2; d ... e");
    ASSERT_PP("x // a comment \\\n still the comment\ny", "x y");
    ASSERT_PP("x // a \\ backslash alone\ny", "x y");
    ASSERT_PP("p\\\n\\\nq +\\\n\\\n+ r", "pq ++ r");
    ASSERT_PP("t \\\n", "t");
    ASSERT_PP("u  \t  v\t\tw", "u v w");
    ASSERT_PP("-", "-");
    ASSERT_PP("a-", "a -");
    /* Where a token was spliced, its line is where it began. */
    lat__unit *u = run_in("int\nlong\\\nname = 1;\nx", NULL);
    ASSERT_EQ(u->toks.items[1].loc.line, 2);
    ASSERT_EQ(u->toks.items[2].loc.line, 3);
    ASSERT_EQ(u->toks.items[5].loc.line, 4);
}
