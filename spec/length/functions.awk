# spec/length/functions.awk: prints "FILE:NAME LINES" for each function
# defined in the C files it reads, LINES counted from the line of the name to
# the closing brace. A scan of braces after comments, string and character
# literals and preprocessor lines are blanked out: the core's style (one
# definition opening at column 0, no braces in #if branches) is all it needs.
# An unbalanced file is reported and fails the run.
function flush_file() {
  if (FILENAME_PREV != "" && depth != 0) {
    printf "%s: braces do not balance (depth %d at the end)\n", FILENAME_PREV, depth > "/dev/stderr"
    bad = 1
  }
  depth = 0; head = ""; headline = 0; incomment = 0; inpp = 0
}
FNR == 1 { flush_file(); FILENAME_PREV = FILENAME }
{
  line = $0
  # a preprocessor line, with its continuations, holds no braces of the code
  if (inpp || line ~ /^[ \t]*#/) { inpp = (line ~ /\\$/); next }
  out = ""
  n = length(line)
  for (i = 1; i <= n; i++) {
    c = substr(line, i, 1)
    if (incomment) {
      if (c == "*" && substr(line, i + 1, 1) == "/") { incomment = 0; i++ }
      continue
    }
    if (c == "/" && substr(line, i + 1, 1) == "*") { incomment = 1; i++; out = out " "; continue }
    if (c == "/" && substr(line, i + 1, 1) == "/") break
    if (c == "\"" || c == "'") {
      q = c
      for (i++; i <= n; i++) {
        d = substr(line, i, 1)
        if (d == "\\") { i++; continue }
        if (d == q) break
      }
      out = out " "
      continue
    }
    out = out c
  }
  # an attribute's parentheses are not a parameter list
  gsub(/__attribute__[ \t]*\(\([^()]*\)\)/, " ", out)
  # braces, in order; the text at depth 0 before a "{" is its head
  m = length(out)
  for (i = 1; i <= m; i++) {
    c = substr(out, i, 1)
    if (depth == 0) {
      if (c == "{") {
        isfn = (head ~ /\(/ && head !~ /=/ && head !~ /^[ \t]*(typedef|struct|union|enum)[ \t]/)
        name = ""
        if (isfn) {
          h = head
          sub(/\(.*/, "", h)
          if (match(h, /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) name = substr(h, RSTART, RLENGTH)
          gsub(/[ \t]/, "", name)
        }
        start = headline ? headline : FNR
        depth = 1
        head = ""; headline = 0
        continue
      }
      if (c == ";" || c == "}") { head = ""; headline = 0; continue }
      if (c ~ /[A-Za-z_(]/ && headline == 0) headline = FNR
      # the name's line: the last line at depth 0 that opened a "("
      if (c == "(" && head !~ /\(/) nameline = FNR
      head = head c
      continue
    }
    if (c == "{") depth++
    else if (c == "}") {
      depth--
      if (depth == 0 && name != "") {
        printf "%s:%s %d\n", FILENAME, name, FNR - nameline + 1
        name = ""
      }
    }
  }
  if (depth == 0 && head != "") head = head " "
}
END { flush_file(); exit bad }
