package dev.podium.query.view;

import java.util.List;

/**
 * One page of a benchmark's comparison keys: the ranked list (real data first, {@code Queries#keys}) a page of
 * {@value #PER_PAGE} at a time, or, with {@code find}, the keys whose canonical text holds it, so that every key is
 * reachable however many an agent added.
 */
public record KeyListing(List<KeyOption> keys, Paging paging) {

    public static final int PER_PAGE = 200;

    /** The longest text a search takes. */
    public static final int MAX_FIND = 200;

    /**
     * Where the keys shown stand.
     *
     * @param page the page shown, from 1
     * @param pages the pages of the ranked list (1 when searching)
     * @param listed how many keys the ranked list holds (a search: how many matched, at most {@value #PER_PAGE})
     * @param find the text searched for; null for the ranked list
     * @param previous the link to the page before; null on the first
     * @param next the link to the page after; null on the last
     */
    public record Paging(int page, int pages, int listed, String find, String previous, String next) {}

    /** What a request asks for: a page number and a search, each checked (400 with the reason). */
    public record Asked(int page, String find) {

        public static Asked of(String page, String find) {
            String text = KeyListing.find(find);
            Long n = BadRequest.wholeNumber(page, 1, Integer.MAX_VALUE, "page: a whole number from 1");
            return new Asked(n == null ? 1 : n.intValue(), text);
        }
    }

    /**
     * A search's text, stripped; null for none. 400 for one longer than {@value #MAX_FIND} characters or holding NUL.
     */
    public static String find(String find) {
        String text = find == null || find.isBlank() ? null : find.strip();
        if (text != null && (text.length() > MAX_FIND || text.indexOf('\0') >= 0)) {
            throw BadRequest.because("find: at most " + MAX_FIND + " characters, without NUL");
        }
        return text;
    }
}
