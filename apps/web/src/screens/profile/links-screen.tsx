export const LinksScreen = () => <section data-screen="LinksScreen" />;
