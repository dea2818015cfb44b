#nullable enable
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Payments
{
    /// <summary>
    /// A small JSON reader and writer, so the SDK needs nothing beyond the base class library
    /// (System.Text.Json is not on every runtime this targets). Objects read as
    /// <c>Dictionary&lt;string, object?&gt;</c>, arrays as <c>List&lt;object?&gt;</c>, integers as
    /// <c>long</c>, other numbers as <c>double</c>.
    /// </summary>
    public static class Json
    {
        public static object? Parse(string text)
        {
            var reader = new Reader(text);
            reader.SkipWhitespace();
            var value = reader.ReadValue();
            reader.SkipWhitespace();
            if (!reader.AtEnd) throw new FormatException("Unexpected text after the JSON value.");
            return value;
        }

        public static string Serialize(object? value)
        {
            var sb = new StringBuilder();
            Write(sb, value);
            return sb.ToString();
        }

        private static void Write(StringBuilder sb, object? value)
        {
            if (value == null) { sb.Append("null"); return; }
            if (value is string s) { WriteString(sb, s); return; }
            if (value is bool b) { sb.Append(b ? "true" : "false"); return; }
            if (value is int || value is long || value is short || value is byte) { sb.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture)); return; }
            if (value is double || value is float || value is decimal) { sb.Append(Convert.ToDouble(value, CultureInfo.InvariantCulture).ToString("R", CultureInfo.InvariantCulture)); return; }
            if (value is IDictionary map)
            {
                sb.Append('{');
                var first = true;
                foreach (DictionaryEntry entry in map)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    WriteString(sb, Convert.ToString(entry.Key, CultureInfo.InvariantCulture) ?? "");
                    sb.Append(':');
                    Write(sb, entry.Value);
                }
                sb.Append('}');
                return;
            }
            if (value is IEnumerable list)
            {
                sb.Append('[');
                var first = true;
                foreach (var item in list)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Write(sb, item);
                }
                sb.Append(']');
                return;
            }
            WriteString(sb, Convert.ToString(value, CultureInfo.InvariantCulture) ?? "");
        }

        private static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (var c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }

        // Typed reads of a decoded object's members, used by the generated models.

        public static string? GetString(IDictionary<string, object?> json, string name) =>
            json.TryGetValue(name, out var v) ? v as string : null;

        public static long? GetLong(IDictionary<string, object?> json, string name) =>
            json.TryGetValue(name, out var v) ? AsLong(v) : null;

        public static double? GetDouble(IDictionary<string, object?> json, string name) =>
            json.TryGetValue(name, out var v) && (v is long || v is double) ? Convert.ToDouble(v, CultureInfo.InvariantCulture) : (double?)null;

        public static bool? GetBool(IDictionary<string, object?> json, string name) =>
            json.TryGetValue(name, out var v) && v is bool b ? b : (bool?)null;

        public static object? GetValue(IDictionary<string, object?> json, string name) =>
            json.TryGetValue(name, out var v) ? v : null;

        public static T? GetObject<T>(IDictionary<string, object?> json, string name, Func<IDictionary<string, object?>, T> read) where T : class =>
            json.TryGetValue(name, out var v) && v is IDictionary<string, object?> inner ? read(inner) : null;

        public static IDictionary<string, object?>? GetMap(IDictionary<string, object?> json, string name) =>
            json.TryGetValue(name, out var v) ? v as IDictionary<string, object?> : null;

        public static IReadOnlyDictionary<string, string>? GetStringMap(IDictionary<string, object?> json, string name)
        {
            if (!json.TryGetValue(name, out var v) || !(v is IDictionary<string, object?> inner)) return null;
            var result = new Dictionary<string, string>();
            foreach (var pair in inner) if (pair.Value is string s) result[pair.Key] = s;
            return result;
        }

        public static IReadOnlyList<T>? GetList<T>(IDictionary<string, object?> json, string name, Func<object?, T> read)
        {
            if (!json.TryGetValue(name, out var v) || !(v is List<object?> items)) return null;
            var result = new List<T>(items.Count);
            foreach (var item in items) result.Add(read(item));
            return result;
        }

        public static long? AsLong(object? v)
        {
            if (v is long l) return l;
            if (v is double d && Math.Floor(d) == d) return (long)d;
            return null;
        }

        private sealed class Reader
        {
            private readonly string text;
            private int pos;

            public Reader(string text) { this.text = text; }

            public bool AtEnd => pos >= text.Length;

            public void SkipWhitespace()
            {
                while (pos < text.Length && char.IsWhiteSpace(text[pos])) pos++;
            }

            public object? ReadValue()
            {
                if (AtEnd) throw new FormatException("Unexpected end of JSON.");
                var c = text[pos];
                if (c == '{') return ReadObject();
                if (c == '[') return ReadArray();
                if (c == '"') return ReadString();
                if (c == 't') return Literal("true", true);
                if (c == 'f') return Literal("false", false);
                if (c == 'n') return Literal("null", null);
                return ReadNumber();
            }

            private object? Literal(string word, object? value)
            {
                if (string.CompareOrdinal(text, pos, word, 0, word.Length) != 0) throw new FormatException($"Unexpected character at {pos}.");
                pos += word.Length;
                return value;
            }

            private Dictionary<string, object?> ReadObject()
            {
                var result = new Dictionary<string, object?>();
                pos++;
                SkipWhitespace();
                if (!AtEnd && text[pos] == '}') { pos++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    if (AtEnd || text[pos] != '"') throw new FormatException($"Expected a member name at {pos}.");
                    var key = ReadString();
                    SkipWhitespace();
                    Expect(':');
                    SkipWhitespace();
                    result[key] = ReadValue();
                    SkipWhitespace();
                    if (!AtEnd && text[pos] == ',') { pos++; continue; }
                    Expect('}');
                    return result;
                }
            }

            private List<object?> ReadArray()
            {
                var result = new List<object?>();
                pos++;
                SkipWhitespace();
                if (!AtEnd && text[pos] == ']') { pos++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    result.Add(ReadValue());
                    SkipWhitespace();
                    if (!AtEnd && text[pos] == ',') { pos++; continue; }
                    Expect(']');
                    return result;
                }
            }

            private void Expect(char c)
            {
                if (AtEnd || text[pos] != c) throw new FormatException($"Expected '{c}' at {pos}.");
                pos++;
            }

            private string ReadString()
            {
                pos++;
                var sb = new StringBuilder();
                while (true)
                {
                    if (AtEnd) throw new FormatException("Unterminated string.");
                    var c = text[pos++];
                    if (c == '"') return sb.ToString();
                    if (c != '\\') { sb.Append(c); continue; }
                    if (AtEnd) throw new FormatException("Unterminated escape.");
                    var e = text[pos++];
                    switch (e)
                    {
                        case 'n': sb.Append('\n'); break;
                        case 'r': sb.Append('\r'); break;
                        case 't': sb.Append('\t'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'u':
                            if (pos + 4 > text.Length) throw new FormatException("Bad \\u escape.");
                            sb.Append((char)int.Parse(text.Substring(pos, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                            pos += 4;
                            break;
                        default: sb.Append(e); break;
                    }
                }
            }

            private object ReadNumber()
            {
                var start = pos;
                while (pos < text.Length && "+-0123456789.eE".IndexOf(text[pos]) >= 0) pos++;
                var token = text.Substring(start, pos - start);
                if (token.Length == 0) throw new FormatException($"Unexpected character at {start}.");
                long l;
                if (token.IndexOfAny(new[] { '.', 'e', 'E' }) < 0 && long.TryParse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out l)) return l;
                return double.Parse(token, NumberStyles.Float, CultureInfo.InvariantCulture);
            }
        }
    }
}
