/* A walk over the tree: every statement and expression of a function body, in source
 * order, for the analyses that need them all (which variables a kernel uses, what it
 * calls, where its barriers are). The callbacks may return false to skip a node's
 * children. */
#ifndef LAT_FRONT_VISIT_H
#define LAT_FRONT_VISIT_H

#include "ast.h"

typedef struct lat__visitor {
    bool (*stmt)(struct lat__visitor *v, lat__stmt *s);
    bool (*expr)(struct lat__visitor *v, lat__expr *e);
    void (*stmt_after)(struct lat__visitor *v, lat__stmt *s);
    void *data;
} lat__visitor;

void lat__visit_stmt(lat__visitor *v, lat__stmt *s);
void lat__visit_expr(lat__visitor *v, lat__expr *e);
/* Every initializer of a declaration group. */
void lat__visit_decls(lat__visitor *v, lat__decl_group *g);

/* e without the implicit conversions around it. */
const lat__expr *lat__skip_implicit(const lat__expr *e);
/* The variable an assignment, ++ or -- writes by name (through implicit conversions), or
 * NULL: for e of any other kind, or a target that is not a variable's name. */
lat__sym *lat__assigned_var(const lat__expr *e);

#endif
